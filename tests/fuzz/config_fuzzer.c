/* Suites: any text through the config parser, then a --set line from it. */
#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	struct config c;
	char err[600];
	config_defaults(&c);
	config_parse_text(&c, "fuzz.conf", t, err, sizeof(err));
	char *nl = strchr(t, '\n');
	if (nl)
		*nl = 0;
	config_set(&c, t, err, sizeof(err));
	config_free(&c);
	free(t);
	return 0;
}
