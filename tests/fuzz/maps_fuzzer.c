/* A /proc/PID/maps line as the recorder reads it (record/maps.c): the
 * kernel writes it, but its paths are any process's names, outside bytes. */
#include "fuzz.h"
#include "maps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct anon_map m;
	if (maps_parse_line((const char *)data, size, 12, &m) == 1 && (m.end <= m.start || m.prot > 7))
		abort();
	return 0;
}
