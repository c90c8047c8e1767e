/* What every parser fuzzer shares: the input as a NUL-terminated string of
 * its own (libFuzzer's bytes are neither), bounded like the files and
 * streams the harness reads. */
#ifndef RMAPBENCH_FUZZ_H
#define RMAPBENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	if (t) {
		memcpy(t, data, size);
		t[size] = 0;
	}
	return t;
}

#endif
