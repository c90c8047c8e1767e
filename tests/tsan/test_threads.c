/* The engine on several threads, under ThreadSanitizer: two users forking,
 * COW-writing and exiting while a reclaim thread walks every page. A data
 * race is a TSan report (and a non-zero exit); the invariants are checked
 * after the threads have joined. Then the lock's two sides: a 6.1 walk
 * shares the root's rwsem with another reader, an older design's waits. */
#include "tap.h"
#include "threads.h"
#include "trace.h"

#include <errno.h>
#include <string.h>
#include <time.h>

struct walker {
	struct engine *e;
	struct page *page;
};

static void *walk_one(void *arg)
{
	struct walker *w = arg;
	page_referenced(w->e, w->page);
	return NULL;
}

static void test_walk_lock_side(const struct rmap_ops *ops)
{
	struct engine e;
	struct trace_ctx t;
	char err[160] = "";
	engine_init(&e, ops);
	trace_init(&t, &e);
	CHECK(trace_run_text(&t, "lock", "mmap 1 16 1 rw\nwrite 1 16 1\n", false, err, sizeof(err)) == 0, "%s: %s",
	      ops->name, err[0] ? err : "one page mapped");
	engine_set_threaded(&e);
	struct walker w = { &e, list_first_entry(&e.pages, struct page, lru) };
	struct anon_vma *held = w.page->mapping->root ? w.page->mapping->root : w.page->mapping;
	pthread_rwlock_rdlock(&held->lock.rw); /* another walker, mid-walk */
	pthread_t tid;
	pthread_create(&tid, NULL, walk_one, &w);
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	int rc = pthread_timedjoin_np(tid, NULL, &until);
	bool shared = !strcmp(ops->name, "modern");
	if (shared)
		CHECK(rc == 0, "%s: a walk shares the root's lock with another reader (anon_vma_lock_read)", ops->name);
	else
		CHECK(rc == ETIMEDOUT, "%s: a walk waits while another holds the anon_vma lock (rc %d)", ops->name, rc);
	pthread_rwlock_unlock(&held->lock.rw);
	if (rc != 0)
		pthread_join(tid, NULL);
	e.threaded = false;
	trace_exit_all(&t);
	engine_destroy(&e);
}

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
	for (int v = 0; rmap_variants[v]; v++)
		test_walk_lock_side(rmap_variants[v]);
	return tap_done();
}
