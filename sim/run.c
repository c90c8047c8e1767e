/* One point on the simulated machine. The parent's setup and the users'
 * forks are untimed, as the native runtime's happen before its start
 * barrier; then every user runs in virtual time until the last one ends,
 * and the point's time is that end (AIM7's: the slowest user's). */
#include "coro.h"
#include "machine.h"
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
#define STACK_SIZE (512 * 1024)
#else
#define STACK_SIZE (64 * 1024)
#endif

static struct machine *running; /* one machine a process: the users' way to it */

static void user_body(void *arg)
{
	struct task *t = arg;
	struct machine *m = running;
	struct wl_slot *slot = &m->ctx.slots[t->id];
	int err = m->w->user(&m->ctx, t->id, slot);
	exit_mmap(&m->e, t->mm);
	m->nproc--;
	sim_prof_op(m, "entry_SYSCALL_64;do_exit;exit_mmap", "unlink_anon_vmas");
	vt_account(m, m->mp.exit_ns, false, m->mp.lock_ns);
	slot->wall_s = t->ready / 1e9;
	slot->user_s = t->user_ns / 1e9;
	slot->sys_s = t->sys_ns / 1e9;
	if (err) {
		slot->status = 1;
		slot->err = err;
	}
	t->done = true;
}

/* The family's layout, walked as `engine walkcost` walks it: page_referenced
 * of every mapped page once, untimed, its counts apart from reclaim's (it
 * clears the accessed bits, as a kswapd pass would). Taken when every user
 * has done a job and none has exited: every COW set is in place. */
static void census(struct machine *m)
{
	struct walk_stats before = m->e.ws;
	struct page *pg;
	m->untimed = true;
	list_for_each_entry(pg, &m->e.pages, lru)
		if (pg->mapcount > 0)
			page_referenced(&m->e, pg);
	m->untimed = false;
	m->nlocks = 0;
	m->census_walks = m->e.ws.walks - before.walks;
	m->census_vmas = m->e.ws.vmas_visited - before.vmas_visited;
	m->census_pages = m->e.nr_mapped_pages;
	m->e.ws = before;
	m->census_done = true;
}

static bool census_due(const struct machine *m, long users, long live)
{
	/* at the peak: again at each new most pages mapped, 2% past the last
	 * census, so that a census is taken O(log pages) times */
	if (m->mp.census == 2)
		return m->e.nr_mapped_pages > m->census_pages + m->census_pages / 50;
	if (!m->mp.census || m->census_done || live < users)
		return false;
	for (long i = 0; i < users; i++)
		if (!m->ctx.slots[i].jobs)
			return false;
	return true;
}

static double real_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What `vmstat 1` would have shown: the median second's system and iowait
 * time (a point that collapses and then drains its IO has both in one
 * average), and the point in TIMELINE_WINDOWS windows as an info line the
 * paper figure draws (an attribute the harness keeps whole: under 208 bytes). */
#define TIMELINE_WINDOWS 30
static void report_timeline(const struct machine *m, double end_ns)
{
	int seconds = (int)ceil(end_ns / 1e9);
	size_t cap = (size_t)(seconds > TIMELINE_WINDOWS ? seconds : TIMELINE_WINDOWS);
	double *sys = malloc(cap * sizeof(double)), *iow = malloc(cap * sizeof(double)), step;
	int n = sys && iow && seconds > 0 ? tl_windows(&m->tl, m->mp.cpus, end_ns, seconds, &step, sys, iow) : 0;
	if (n <= 0) {
		const char *why = sys && iow ? "the point took no virtual time" : "out of memory for its seconds";
		wl_unavailable("sys_pct_1s_median", why);
		wl_unavailable("iowait_pct_1s_median", why);
	} else {
		wl_metric("sys_pct_1s_median", median(sys, n), "%");
		wl_metric("iowait_pct_1s_median", median(iow, n), "%");
		n = tl_windows(&m->tl, m->mp.cpus, end_ns, TIMELINE_WINDOWS, &step, sys, iow);
		printf("info timeline %.3f", step / 1e9);
		for (int i = 0; i < n; i++)
			printf(" %.0f/%.0f", sys[i], iow[i]);
		printf("\n");
	}
	free(sys);
	free(iow);
}

static void report(struct machine *m, double end_ns, double real_s)
{
	double cap = (double)m->mp.cpus * end_ns;
	double idle, iowait;
	tl_idle(&m->tl, m->mp.cpus, end_ns, &idle, &iowait);
	if (cap > 0) {
		wl_metric("user_pct", 100 * m->user_ns / cap, "%");
		wl_metric("sys_pct", 100 * m->sys_ns / cap, "%");
		wl_metric("iowait_pct", 100 * iowait / cap, "%");
		wl_metric("idle_pct", 100 * (idle - iowait) / cap, "%");
		wl_metric("lock_wait_pct", 100 * m->lock_wait_ns / cap, "%");
	}
	report_timeline(m, end_ns);
	wl_metric("sys_s", m->sys_ns / 1e9, "s");
	sim_prof_report(m);
	wl_metric("user_s", m->user_ns / 1e9, "s");
	/* the host's figure counts every kernel lock; the model has one */
	wl_unavailable("lock_contentions", "the engine models the anon_vma lock alone: lockstat_anon_vma_contentions");
	wl_metric("lockstat_anon_vma_contentions", (double)m->contentions, "contentions");
	wl_metric("lockstat_anon_vma_wait_ns", m->lock_wait_ns, "ns");
	wl_metric("lockstat_anon_vma_acquisitions", (double)m->acquisitions, "acquisitions");
	wl_metric("rmap_walks", (double)m->e.ws.walks, "walks");
	wl_metric("rmap_vmas_visited", (double)m->e.ws.vmas_visited, "vmas");
	if (m->e.ws.walks)
		wl_metric("rmap_vmas_per_walk", (double)m->e.ws.vmas_visited / (double)m->e.ws.walks, "vmas/walk");
	else
		wl_unavailable("rmap_vmas_per_walk", "no rmap walk: the point never reclaimed");
	wl_metric("vm_pswpin", (double)m->pswpin, "pages");
	wl_metric("vm_pswpout", (double)m->pswpout, "pages");
	wl_metric("vm_pgscan", (double)m->pgscan, "pages");
	wl_metric("vm_pgsteal", (double)m->pgsteal, "pages");
	wl_metric("vm_pgmajfault", (double)m->major_faults * m->scale, "faults");
	wl_metric("vm_allocstall", (double)m->allocstall, "stalls");
	wl_metric("vm_kswapd_wakeups", (double)m->kswapd_wakeups, "wakeups");
	wl_metric("vm_cache_evicted", (double)m->cache_evicted, "pages");
	if (m->file_kib > 0) {
		wl_metric("file_pages_read", (double)m->file_pages_read, "pages");
		wl_metric("file_cache_misses", (double)m->file_misses, "pages");
	}
	if (m->mp.census && m->census_done) {
		wl_metric("page_referenced_walks", (double)m->census_walks, "walks");
		wl_metric("page_referenced_vmas_visited", (double)m->census_vmas, "vmas");
		if (m->census_walks)
			wl_metric("page_referenced_vmas_per_walk", (double)m->census_vmas / (double)m->census_walks,
				  "vmas/walk");
	} else if (m->mp.census) {
		wl_unavailable("page_referenced_vmas_per_walk", m->mp.census == 2 ? "no census: no page was mapped"
						 : "no census: a user exited before every user had done a job");
	}
	wl_metric("sim_peak_used_mib", m->peak_used_kib / 1024, "MiB");
	/* allocations that found no memory after every retry: where the
	 * kernel would have OOM-killed, the model went over RAM */
	wl_metric("sim_overcommits", (double)m->overcommits, "allocations");
	wl_metric("sim_virtual_s", end_ns / 1e9, "s");
	wl_metric("sim_real_s", real_s, "s");
	printf("info variant %s\n", m->e.ops->name);
	printf("info memory at the end: free %.0f KiB, cache %.0f KiB, %llu anon pages mapped, %ld processes\n",
	       vt_free_kib(m), m->cache_kib, (unsigned long long)m->e.nr_mapped_pages, m->nproc);
	static const char *const zone_name[SIM_NR_ZONES] = { "DMA32", "Normal" };
	printf("info zones");
	for (int z = 0; z < m->nr_zones; z++)
		printf("%s %s %.0f MiB inactive_ratio %.0f", z ? "," : "", m->nr_zones > 1 ? zone_name[z] : "one zone",
		       m->zones[z].share * m->mp.ram_mib, m->zones[z].inactive_ratio);
	printf("\n");
	printf("info machine cpus=%ld ram_mib=%g page_kib=%g swap_mbps=%g min_free_kib=%.0f walk_scale=%g", m->mp.cpus,
	       m->mp.ram_mib, m->mp.page_kib, m->mp.swap_mbps, m->min_kib, m->mp.walk_scale);
	if (m->mp.walk_curve.n)
		printf(" walk cost at %g VMAs %.0f ns a page, %.0f ns a VMA\n",
		       m->mp.walk_curve.vmas[m->mp.walk_curve.n - 1], m->mp.walk_curve.ns[m->mp.walk_curve.n - 1],
		       m->mp.walk_curve.ns[m->mp.walk_curve.n - 1] / m->mp.walk_curve.vmas[m->mp.walk_curve.n - 1]);
	else
		printf(" vma_ns=%g\n", m->mp.vma_ns);
}

static int setup(struct machine *m, const struct workload *w, const struct wl_params *wp,
		 const struct sim_params *sp)
{
	const struct rmap_ops *ops = rmap_ops_find(sp->variant);
	if (!ops) {
		fprintf(stderr, "rmapbench-sim: variant=%s: no such design\n", sp->variant);
		return -1;
	}
	m->mp = *sp;
	m->w = w;
	m->scale = sp->page_kib / 4.0;
	m->lock_sleeps = !strcmp(ops->name, "modern");
	/* 2.6.33's sysctl_sched_min_granularity, 1 ms, times 1 + ilog2(CPUs)
	 * (SCHED_TUNABLESCALING_LOG): the slice each of many runnable tasks gets */
	m->slice_ns = sp->slice_ms > 0 ? sp->slice_ms * 1e6 : 1e6 * (1 + floor(log2((double)sp->cpus)));
	engine_init(&m->e, ops);
	/* Quarantine stays on: an operation that frees an anon_vma (exit,
	 * munmap) has taken its lock, whose virtual-time state vt_account
	 * reads after the operation. */
	m->e.lock_hook = vt_lock_hook;
	m->e.lock_hook_arg = m;
	m->ram_kib = sp->ram_mib * 1024;
	zones_init(m);
	m->min_kib = sp->min_free_kib > 0 ? sp->min_free_kib : sqrt(16 * m->ram_kib);
	m->low_kib = m->min_kib * 5 / 4;
	m->high_kib = m->min_kib * 3 / 2;
	m->cpu_free = calloc((size_t)sp->cpus, sizeof(double));
	m->heap = calloc((size_t)wp->users + 3, sizeof(*m->heap));
	m->runq_cap = (size_t)wp->users + 3;
	m->runq = calloc(m->runq_cap, sizeof(*m->runq));
	m->ctx = (struct wl_ctx){ .p = *wp, .be = &wl_engine_backend, .page_size = (size_t)(sp->page_kib * 1024),
				  .file_fd = -1 };
	m->rnd = wp->seed * 2654435761u + 12345;
	m->ctx.slots = calloc((size_t)wp->users, sizeof(struct wl_slot));
	m->ctx.stop = calloc(1, sizeof(int));
	m->kswapd.id = -1;
	m->parent.id = -1;
	m->filler.id = -2;
	return m->cpu_free && m->heap && m->runq && m->ctx.slots && m->ctx.stop ? 0 : -1;
}

int sim_run(const struct workload *w, const struct wl_params *wp, const struct sim_params *sp)
{
	static struct machine machine;
	struct machine *m = &machine;
	double t0 = real_now();
	if (setup(m, w, wp, sp) < 0)
		return 1;
	running = m;
	long users = wp->users;
	struct task *tasks = calloc((size_t)users, sizeof(*tasks));
	size_t stacks_len = (size_t)users * STACK_SIZE;
	char *stacks = mmap(NULL, stacks_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!tasks || stacks == MAP_FAILED) {
		fprintf(stderr, "rmapbench-sim: no memory for %ld users\n", users);
		return 1;
	}

	/* the parent: setup and the users' forks, untimed */
	m->untimed = true;
	m->cur = &m->parent;
	m->parent.mm = mm_alloc(&m->e);
	m->parent.next_addr = 16;
	m->nproc = 1;
	if (!m->parent.mm || (w->setup && w->setup(&m->ctx) != 0)) {
		fprintf(stderr, "rmapbench-sim: %s: setup failed\n", w->name);
		return 1;
	}
	for (long i = 0; i < users; i++) {
		struct task *t = &tasks[i];
		t->id = (int)i;
		t->mm = dup_mm(&m->e, m->parent.mm);
		t->next_addr = m->parent.next_addr;
		t->co = coro_create(user_body, t, stacks + (size_t)i * STACK_SIZE, STACK_SIZE);
		if (!t->mm || !t->co) {
			fprintf(stderr, "rmapbench-sim: out of memory forking user %ld\n", i);
			return 1;
		}
		m->nproc++;
	}
	m->untimed = false;
	for (long i = 0; i < users; i++)
		vt_push(m, &tasks[i]);
	if (sp->cache_mbps > 0 || m->file_kib > 0) { /* a box that has run a while: its free memory is cache */
		double f = vt_free_kib(m) - m->high_kib;
		m->cache_kib = f > 0 ? f : 0;
		if (m->file_kib > 0 && sp->cache_mbps <= 0 && m->cache_kib > m->file_kib)
			m->cache_kib = m->file_kib; /* what is cached is of the file set */
	}
	if (sp->cache_mbps > 0)
		vt_push(m, &m->filler);

	long live = users;
	double end = 0;
	struct task *t;
	while (live > 0 && !m->overrun && (t = vt_next(m))) {
		m->cur = t;
		if (t == &m->kswapd) {
			kswapd_step(m);
			continue;
		}
		if (t == &m->filler) {
			filler_step(m);
			continue;
		}
		if (wp->duration_s > 0 && t->ready >= wp->duration_s * 1e9)
			*m->ctx.stop = 1;
		if (coro_resume(t->co)) {
			vt_push(m, t);
			if (census_due(m, users, live))
				census(m);
			continue;
		}
		live--;
		if (t->ready > end)
			end = t->ready;
		coro_free(t->co);
		t->co = NULL;
	}
	if (m->overrun) {
		fprintf(stderr, "rmapbench-sim: the point passed sim_max_virtual_s=%g s of virtual time\n",
			sp->max_virtual_s);
		return 1;
	}
	wl_report(w, &m->ctx, end / 1e9);
	report(m, end, real_now() - t0);
	fflush(stdout);
	for (long i = 0; i < users; i++)
		coro_free(tasks[i].co);
	munmap(stacks, stacks_len);
	free(tasks);
	engine_destroy(&m->e);
	free(m->cpu_free);
	free(m->heap);
	free(m->runq);
	tl_free(&m->tl);
	free(m->ctx.slots);
	free((void *)m->ctx.stop);
	return 0;
}
