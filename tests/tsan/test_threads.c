/* The engine on several threads, under ThreadSanitizer: two users forking,
 * COW-writing and exiting while a reclaim thread walks every page. A data
 * race is a TSan report (and a non-zero exit); the invariants are checked
 * after the threads have joined. */
#include "tap.h"
#include "threads.h"

#include <string.h>

int main(void)
{
	for (int v = 0; rmap_variants[v]; v++) {
		const struct rmap_ops *ops = rmap_variants[v];
		struct threads_opts o = { ops, 2, 1.5, 42, 32 };
		struct threads_result r;
		CHECK(engine_threads_run(&o, &r) == 0, "%s: 2 users and a reclaim thread ran %.1f s", ops->name, r.seconds);
		CHECK(r.user_ops > 0 && r.ws.walks > 0, "%s: %llu user operations, %llu rmap walks", ops->name,
		      (unsigned long long)r.user_ops, (unsigned long long)r.ws.walks);
		CHECK(r.locks.acquisitions > 0, "%s: anon_vma locks taken %llu times, %llu contended, %.1f ms waited",
		      ops->name, (unsigned long long)r.locks.acquisitions, (unsigned long long)r.locks.contentions,
		      (double)r.locks.wait_ns / 1e6);
		if (!ops->has_known_bugs)
			CHECK(r.faults == 0, "%s: the invariants hold after the run (%s)", ops->name,
			      r.faults ? r.first_fault : "clean");
	}
	return tap_done();
}
