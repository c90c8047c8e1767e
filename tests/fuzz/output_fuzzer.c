/* A workload's output protocol, a line at a time, into a sample set. */
#include "fuzz.h"
#include "sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	struct sample_set ss = { 0 };
	for (char *save = NULL, *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		ss_parse_line(&ss, line, "guest_");
	for (size_t i = 0; i < ss.n; i++)
		if (!ss.v[i].unavailable && ss.v[i].value != ss.v[i].value)
			abort(); /* nan recorded as a value */
	ss_free(&ss);
	free(t);
	return 0;
}
