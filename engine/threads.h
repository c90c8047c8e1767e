/* Several threads on one engine: users forking, COW-writing and exiting
 * in their own process families, and a reclaim thread walking every page
 * (page_referenced, try_to_unmap) at the same time, so that the anon_vma
 * locks are really contended. Afterwards, single-threaded: the checker,
 * every process exits, the leak check. */
#ifndef ENGINE_THREADS_H
#define ENGINE_THREADS_H

#include "engine.h"

struct threads_opts {
	const struct rmap_ops *ops;
	int users;          /* user threads, 1..8 */
	double seconds;
	unsigned seed;
	unsigned long pages; /* the parent's region, per family */
};

struct threads_result {
	uint64_t user_ops, reclaim_passes, unmapped;
	struct walk_stats ws;
	struct lock_totals locks;
	size_t faults;
	char first_fault[300];
	double seconds;
};

int engine_threads_run(const struct threads_opts *o, struct threads_result *r);

#endif
