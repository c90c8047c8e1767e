/* kernels/git-range.sh's output as git_range_parse reads it: the lines
 * come from a git tree (subjects, dates), outside bytes. */
#include "fuzz.h"
#include "git_range.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (t) {
		struct git_range r;
		char err[300];
		if (git_range_parse(t, &r, err, sizeof(err)) == 0)
			free(r.commits);
	}
	free(t);
	return 0;
}
