/* A kernel image named by a config or a cache: its header's release is
 * read from outside bytes. */
#include "fuzz.h"
#include "kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char release[128];
	kernel_bzimage_release(data, size, release, sizeof(release));
	for (const char *p = release; *p; p++) /* a word, whatever the image held */
		if (!(*p >= '0' && *p <= '9') && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !strchr("._+~-", *p))
			abort();
	return 0;
}
