/* Random operation sequences over the trace language, on one design or on
 * several in lockstep (differential: which page is mapped where must agree
 * with legacy, the oracle, after every operation). */
#ifndef ENGINE_FUZZ_H
#define ENGINE_FUZZ_H

#include <stdint.h>
#include <stdio.h>

#include "engine.h"

struct fuzz_opts {
	const struct rmap_ops *variants[RMAP_MAX_VARIANTS];
	int nvariants;
	uint64_t max_ops;
	double max_seconds;
	unsigned seed;
	bool check_each;          /* the checker after every operation */
	bool inject_enomem;       /* fail allocations at random (modern's error paths) */
	bool stop_at_fault;
	uint64_t reset_every;     /* start a fresh machine every so many operations */
	bool known_as_faults;     /* do not restart at a known finding: let it fault */
	FILE *trace_out;          /* where the failing trace is written */
	/* Hunt one kind of fault: a fault of another kind restarts that
	 * lane's machine (it is counted in other_faults), the first of this
	 * kind stops the run and is the one written to trace_out. */
	const char *until_kind;
};

struct fuzz_result {
	uint64_t ops;
	uint64_t faults[RMAP_MAX_VARIANTS];
	uint64_t divergences[RMAP_MAX_VARIANTS];
	char first_kind[RMAP_MAX_VARIANTS][32];
	uint64_t first_op[RMAP_MAX_VARIANTS];
	uint64_t other_faults[RMAP_MAX_VARIANTS]; /* with until_kind: faults of other kinds, each restarting its lane */
	uint64_t known[RMAP_MAX_VARIANTS];        /* known findings reached (each restarts every lane) */
	char known_name[RMAP_MAX_VARIANTS][48];
	double seconds;
};

int fuzz_run(const struct fuzz_opts *o, struct fuzz_result *r);

#endif
