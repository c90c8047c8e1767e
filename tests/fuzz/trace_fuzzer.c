/* libFuzzer over the trace parser and everything behind it: any text is
 * parsed, replayed on every design with the checker after each operation,
 * and torn down. A crash, a sanitizer report or a leak is a finding; an
 * invariant fault on avc-rc is its history, and on the others a bug that
 * aborts so that libFuzzer keeps the input. */
#include "engine.h"
#include "trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	for (int v = 0; rmap_variants[v]; v++) {
		struct engine e;
		struct trace_ctx t;
		char err[300];
		engine_init(&e, rmap_variants[v]);
		trace_init(&t, &e);
		trace_run_text(&t, "fuzz", text, true, err, sizeof(err));
		trace_exit_all(&t);
		if (e.nfaults && !rmap_variants[v]->has_known_bugs) {
			fprintf(stderr, "%s: %s: %s\n", rmap_variants[v]->name, e.faults[0].kind, e.faults[0].detail);
			abort();
		}
		engine_destroy(&e);
	}
	free(text);
	return 0;
}
