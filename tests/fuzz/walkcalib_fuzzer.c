/* results/walk-calibration.tsv: a file on disk the engine target reads
 * its walk cost from. */
#include "fuzz.h"
#include "walk_calib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (t) {
		struct walk_calib c;
		char err[300];
		walk_calib_parse(t, "fuzz.tsv", &c, err, sizeof(err));
	}
	free(t);
	return 0;
}
