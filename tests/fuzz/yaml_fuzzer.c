/* stress-ng's -Y metrics file. */
#include "fuzz.h"
#include "stressng.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	struct sample_set ss = { 0 };
	stressng_parse_yaml_text(t, &ss, 1);
	ss_free(&ss);
	free(t);
	return 0;
}
