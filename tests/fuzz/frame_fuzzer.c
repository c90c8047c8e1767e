/* The guest's results port: any bytes, through the frame parser and the
 * host's handling of each payload (point_vm.c's on_payload: samples and
 * attributes), as a hostile guest would send them. */
#include "frame.h"
#include "fuzz.h"
#include "sample.h"

static void each(void *arg, const char *payload)
{
	if (ss_parse_line(arg, payload, "") && !strncmp(payload, "info ", 5))
		ss_attr(arg, "k", "%s", payload + 5);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sample_set ss = { 0 };
	char status[128], why[300];
	frame_parse_stream((const char *)data, size, each, &ss, status, sizeof(status), why, sizeof(why));
	ss_free(&ss);
	return 0;
}
