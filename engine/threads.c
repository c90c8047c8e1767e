#include "threads.h"
#include "trace.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

struct shared {
	struct engine e;
	const struct threads_opts *o;
	int stop;            /* atomic */
	uint64_t user_ops;   /* atomic */
};

struct user {
	struct shared *sh;
	int index;
	pthread_t tid;
};

static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void run_line(struct trace_ctx *t, const char *line)
{
	char err[160];
	trace_exec(t, line, err, sizeof(err));
}

/* An AIM7 user in the engine: the parent maps and touches a region; each
 * job forks a child that COW-writes part of it, reads back what reclaim
 * took (swap-in), and exits; now and then the parent writes too. */
static void *user_main(void *arg)
{
	struct user *u = arg;
	struct shared *sh = u->sh;
	struct trace_ctx t;
	unsigned s = sh->o->seed * 7919u + (unsigned)u->index;
	unsigned long base = 16, n = sh->o->pages;
	char line[96];
	trace_init(&t, &sh->e);
	snprintf(line, sizeof(line), "mmap 1 %lu %lu rw", base, n);
	run_line(&t, line);
	snprintf(line, sizeof(line), "write 1 %lu %lu", base, n);
	run_line(&t, line);
	uint64_t ops = 2;
	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		unsigned long a = base + rnd(&s) % n, len = 1 + rnd(&s) % (n - (a - base));
		run_line(&t, "fork 1 2");
		snprintf(line, sizeof(line), "write 2 %lu %lu", a, len);
		run_line(&t, line);
		if (rnd(&s) % 2) {
			run_line(&t, "fork 2 3");
			snprintf(line, sizeof(line), "read 3 %lu %lu", base, n);
			run_line(&t, line);
			run_line(&t, "exit 3");
			ops += 3;
		}
		snprintf(line, sizeof(line), "read 1 %lu %lu", base, n); /* swap back in what reclaim took */
		run_line(&t, line);
		snprintf(line, sizeof(line), "write 1 %lu 1", base + rnd(&s) % n);
		run_line(&t, line);
		run_line(&t, "exit 2");
		ops += 5;
	}
	trace_exit_all(&t);
	__atomic_add_fetch(&sh->user_ops, ops, __ATOMIC_RELAXED);
	return NULL;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int engine_threads_run(const struct threads_opts *o, struct threads_result *r)
{
	static struct shared sh; /* large: not on the stack */
	struct user users[8];
	memset(r, 0, sizeof(*r));
	memset(&sh, 0, sizeof(sh));
	if (o->users < 1 || o->users > 8 || o->pages < 2)
		return -1;
	engine_init(&sh.e, o->ops);
	engine_set_threaded(&sh.e);
	sh.o = o;
	double t0 = now();
	for (int i = 0; i < o->users; i++) {
		users[i] = (struct user){ &sh, i, 0 };
		pthread_create(&users[i].tid, NULL, user_main, &users[i]);
	}
	/* this thread is kswapd: walk the lru round and round */
	struct page *page = NULL;
	while (now() - t0 < o->seconds) {
		page = page_pin_next(&sh.e, page);
		if (!page) {
			sched_yield();
			continue;
		}
		page_referenced(&sh.e, page);
		r->unmapped += try_to_unmap(&sh.e, page);
		r->reclaim_passes++;
	}
	__atomic_store_n(&sh.stop, 1, __ATOMIC_RELAXED);
	if (page)
		page_pin_next(&sh.e, page); /* lets go of the last one */
	for (int i = 0; i < o->users; i++)
		pthread_join(users[i].tid, NULL);
	page = page_pin_next(&sh.e, NULL); /* and of the first it pinned back */
	if (page)
		page_pin_next(&sh.e, page);
	r->seconds = now() - t0;
	sh.e.threaded = false;
	engine_check(&sh.e);
	for (int c = 0; c < NR_CACHES; c++)
		if (sh.e.live[c] && c != C_PAGE)
			engine_fault(&sh.e, "leak", "%llu %s left after every process exited",
				     (unsigned long long)sh.e.live[c], cache_names[c]);
	r->user_ops = sh.user_ops;
	r->ws = sh.e.ws;
	r->faults = sh.e.nfaults;
	if (sh.e.nfaults)
		snprintf(r->first_fault, sizeof(r->first_fault), "%s: %s", sh.e.faults[0].kind, sh.e.faults[0].detail);
	engine_destroy(&sh.e);
	r->locks = sh.e.locks;
	return 0;
}
