#ifndef ENGINE_REPLAY_H
#define ENGINE_REPLAY_H

#include "engine.h"
#include "trace.h"

/* A recorded program's history on one design, counted as `engine
 * walkcost` counts its family: at a moment, every mapped page walked once
 * by rmap_walk_full (every vma that may map it) and once by
 * page_referenced (stopping at its last mapping), untimed and apart from
 * the replay's own counts. */
struct replay_census {
	bool taken;
	uint64_t op;                       /* after this many operations */
	uint64_t pages, procs, vmas, anon_vmas, avcs, longest_chain;
	size_t bytes_pages, bytes_ptes;    /* struct page and the pte slots */
	struct walk_stats walk, referenced;
};

struct replay_result {
	uint64_t ops, refused;
	size_t faults;                     /* the invariant checker's, when asked */
	struct fault first_fault;
	uint64_t peak_pages, peak_op;      /* the most pages mapped, and when */
	unsigned long procs_max;
	struct replay_census peak, end;
	double replay_s;
};

/* The next line of the trace, NULL at its end; *lineno its number. */
typedef const char *(*replay_next_fn)(void *arg, unsigned long *lineno);

/* Replays the trace on ops, a census after operation census_op (0: none)
 * and one at the end if anything is still mapped; with check, the
 * invariant checker after every operation. 0, or -1 with err "LINE: why"
 * (a malformed or impossible line, or the budget spent). Strict (a
 * recorded trace): an operation by a process that does not exist is an
 * error. The budget is the process's resident memory, read every
 * REPLAY_BUDGET_EVERY lines: what a small file can make a replay take. */
#define REPLAY_BUDGET_EVERY 256
struct replay_opts {
	uint64_t census_op;
	bool strict, check;
	size_t max_bytes;  /* > 0: past this much resident memory the replay stops, an error */
};
int replay_run(const struct rmap_ops *ops, replay_next_fn next, void *arg, const struct replay_opts *o,
	       struct replay_result *out, char *err, size_t errlen);

#endif
