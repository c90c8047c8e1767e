/* The recorder's tracer: CMD and its whole process tree under ptrace,
 * stopped by a seccomp filter only at the system calls that change
 * anonymous memory or the process tree, each stop a sync of the address
 * space (mmstate.c) written as trace operations. */
#ifndef RECORD_TRACER_H
#define RECORD_TRACER_H

#include <stddef.h>
#include <stdint.h>

#include "emit.h"

struct record_stats {
	uint64_t processes, forks, spawns, execs, threads, stops, syncs, pages_read, skipped_huge, samples;
	uint64_t scans;            /* mappings read by PAGEMAP_SCAN, not whole */
	uint64_t untraced_cleared; /* clone(CLONE_UNTRACED) calls made traced */
	unsigned long live_max;
	int status;              /* CMD's wait status */
	double wall_s;
};

/* Runs argv under the tracer into out, every running process also
 * sampled each sample_ms (0: only at stops). 0, or -1 with err (the
 * tracer could not start: nothing was run). Every traced task is killed
 * if the recorder dies (PTRACE_O_EXITKILL). */
int record_run(char *const argv[], struct emit *out, long sample_ms, struct record_stats *st, char *err,
	       size_t errlen);

#endif
