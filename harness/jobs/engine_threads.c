/* engine threads: users on threads and a reclaim thread on one engine, the
 * anon_vma locks contended for real, their lock_stat-like figures recorded. */
#include "engine_jobs.h"
#include "engine_common.h"
#include "threads.h"
#include "util.h"

#include <stdio.h>

int engine_threads(const char *db_path, struct eargs *a)
{
	const struct rmap_ops *ops = engine_variant(a->variant);
	if (!ops)
		return 2;
	struct threads_opts o = { ops, a->users ? (int)a->users : 2, a->seconds > 0 ? a->seconds : 5,
				  a->seed ? a->seed : 1, a->pages ? a->pages : 32 };
	if (o.users < 1)
		return engine_usage("--users: 1 to 8");
	if (o.pages < 2)
		return engine_usage("--pages: at least 2");
	struct threads_result r;
	engine_threads_run(&o, &r);
	struct sample_set ss = { 0 };
	ss_add(&ss, "user_ops", (double)r.user_ops, "ops");
	ss_add(&ss, "user_ops_per_s", (double)r.user_ops / r.seconds, "ops/s");
	ss_add(&ss, "reclaim_passes", (double)r.reclaim_passes, "pages");
	ss_add(&ss, "pages_unmapped", (double)r.unmapped, "pages");
	ss_add(&ss, "rmap_walks", (double)r.ws.walks, "walks");
	ss_add(&ss, "rmap_vmas_visited", (double)r.ws.vmas_visited, "vmas");
	if (r.ws.walks)
		ss_add(&ss, "rmap_vmas_per_walk", (double)r.ws.vmas_visited / (double)r.ws.walks, "vmas/walk");
	ss_add(&ss, "lock_acquisitions", (double)r.locks.acquisitions, "acquisitions");
	ss_add(&ss, "lock_contentions", (double)r.locks.contentions, "contentions");
	ss_add(&ss, "lock_wait_ns", (double)r.locks.wait_ns, "ns");
	ss_add(&ss, "lock_hold_ns", (double)r.locks.hold_ns, "ns");
	ss_add(&ss, "faults", (double)r.faults, "faults");
	ss_add(&ss, "wall_s", r.seconds, "s");
	if (r.faults)
		ss_attr(&ss, "first_fault", "%s", r.first_fault);
	if (a->json) {
		printf("{\"variant\": \"%s\", \"users\": %d", ops->name, o.users);
		engine_json_close(&ss);
	} else {
		printf("threads %s: %d users + reclaim for %.1f s: %llu user ops, %llu walks, anon_vma locks %llu "
		       "acquired, %llu contended, %.1f ms waited; %zu faults%s%s\n",
		       ops->name, o.users, r.seconds, (unsigned long long)r.user_ops, (unsigned long long)r.ws.walks,
		       (unsigned long long)r.locks.acquisitions, (unsigned long long)r.locks.contentions,
		       (double)r.locks.wait_ns / 1e6, r.faults, r.faults ? ": " : "", r.first_fault);
	}
	int rc = engine_record(db_path, a, ops->name, "threads", o.users, &ss, r.faults ? r.first_fault : NULL) < 0 ? 1
		 : r.faults && !ops->has_known_bugs ? 3
						    : 0;
	ss_free(&ss);
	return rc;
}
