/* A guest's console, as the host quotes it when a point fails. */
#include "fuzz.h"
#include "point.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	char buf[700], tiny[9];
	console_tail_of(t, buf, sizeof(buf));
	console_tail_of(t, tiny, sizeof(tiny));
	free(t);
	return 0;
}
