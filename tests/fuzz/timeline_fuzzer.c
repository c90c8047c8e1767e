/* An engine point's timeline attribute, read back from a database for the
 * paper figure. */
#include "fuzz.h"
#include "timeline_attr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (t) {
		struct timeline_attr a;
		char err[200];
		timeline_attr_parse(t, &a, err, sizeof(err));
	}
	free(t);
	return 0;
}
