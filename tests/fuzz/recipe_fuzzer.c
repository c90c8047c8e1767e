/* Kernel recipes (kernels/LABEL.kernel) and the cache's kernel.info: the
 * same bytes through both parsers. */
#include "fuzz.h"
#include "kernel.h"
#include "recipe.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size), *u = fuzz_text(data, size);
	if (t && u) {
		struct kernel_recipe r;
		struct kernel_info *k = calloc(1, sizeof(*k));
		char err[600];
		memset(&r, 0, sizeof(r));
		snprintf(r.path, sizeof(r.path), "fuzz.kernel");
		kernel_recipe_parse(&r, t, err, sizeof(err));
		if (k)
			kernel_info_parse(u, k);
		free(k);
	}
	free(t);
	free(u);
	return 0;
}
