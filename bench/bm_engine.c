/* The engine's operations per design, against N:
 *   page_referenced, try_to_unmap  one walk of the last of N forked
 *       children's COWed page (legacy scans the family to find it)
 *   anon_vma_fork, exit_unlink_anon_vmas   fork and exit of a process at
 *       fork depth N (its vma's chain has N+1 entries in the chain designs)
 *   *_sibling   the same for one more child of a parent with N children
 * Operations too short for PauseTiming are timed by hand (manual time).
 *
 * Google Benchmark calls a benchmark's function again for every run it
 * makes: the runs that size the iteration count (1, 10, 100, ...
 * iterations), then each repetition (the same count each time). Building a
 * family of 10,000 children takes far longer than the walks timed on it,
 * so the sizing runs share one family. Each repetition gets a new one: the
 * heap's layout of a family (how its chains lie in memory) moves a walk's
 * time by tens of percent, and repetitions that shared one layout would
 * agree with each other but not with the next run's, which a test over
 * repetitions would take for a change. A family belongs to one benchmark:
 * the harness interleaves repetitions of different benchmarks, and an
 * unmap faulted back in leaves its page filed where a walk would not look
 * for it (avc files it under the oldest anon_vma). */
#include "bench.h"
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ADDR 16

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum shape { FAMILY, CHAIN };

typedef void bm_fn(struct bench_state *, void *);

static struct fixture {
	bool built;
	bm_fn *owner; /* try_to_unmap leaves its page elsewhere than a walk finds it */
	enum shape shape;
	const struct rmap_ops *ops;
	long n;
	struct engine e;
	/* FAMILY: the parent and its last child; CHAIN: the depth-n process */
	struct mm_struct *parent, *last;
} fx;

static void fixture_drop(void)
{
	if (fx.built)
		engine_destroy(&fx.e);
	fx.built = false;
}

/* FAMILY: a parent with one faulted page and n children that each COW it.
 * CHAIN: n nested forks, each writing its page. */
static struct fixture *fixture(struct bench_state *st, bm_fn *owner, enum shape shape, const struct rmap_ops *ops,
			       long n)
{
	/* a call with the count of the call before is a repetition */
	static int64_t last_count;
	int64_t count = bench_max_iterations(st);
	bool repetition = count == last_count;
	last_count = count;
	if (fx.built && fx.owner == owner && fx.shape == shape && fx.ops == ops && fx.n == n && !repetition)
		return &fx;
	static bool registered;
	if (!registered)
		registered = atexit(fixture_drop) == 0;
	fixture_drop();
	fx = (struct fixture){ .built = true, .owner = owner, .shape = shape, .ops = ops, .n = n };
	struct engine *e = &fx.e;
	engine_init(e, ops);
	e->no_quarantine = true; /* a million forks, one thread, no checker */
	struct mm_struct *p = mm_alloc(e);
	do_mmap(e, p, ADDR, 1, VM_READ | VM_WRITE);
	handle_mm_fault(e, p, ADDR, true);
	fx.parent = fx.last = p;
	for (long k = 0; k < n; k++) {
		fx.last = dup_mm(e, shape == FAMILY ? fx.parent : fx.last);
		handle_mm_fault(e, fx.last, ADDR, true);
	}
	return &fx;
}

/* VMAs per walk over this call's walks: the fixture outlives the call. */
static struct walk_stats walks_so_far(const struct fixture *f)
{
	return f->e.ws;
}

static void vmas_per_walk(struct bench_state *st, const struct fixture *f, struct walk_stats before)
{
	uint64_t walks = f->e.ws.walks - before.walks;
	if (walks)
		bench_counter(st, "vmas_per_walk", (double)(f->e.ws.vmas_visited - before.vmas_visited) / (double)walks,
			      BENCH_COUNTER_PLAIN);
}

static void bm_page_referenced(struct bench_state *st, void *arg)
{
	struct fixture *f = fixture(st, bm_page_referenced, FAMILY, arg, bench_range(st, 0));
	struct walk_stats before = walks_so_far(f);
	struct page *page = pte_lookup(f->last, ADDR)->page;
	while (bench_keep_running(st))
		page_referenced(&f->e, page);
	vmas_per_walk(st, f, before);
}

static void bm_try_to_unmap(struct bench_state *st, void *arg)
{
	struct fixture *f = fixture(st, bm_try_to_unmap, FAMILY, arg, bench_range(st, 0));
	/* Once out and back in, the page is where every later timed walk
	 * finds it (a design may file a swapped-in page elsewhere: avc under
	 * the oldest anon_vma): the counts must not depend on how many
	 * iterations the library chose. */
	try_to_unmap(&f->e, pte_lookup(f->last, ADDR)->page);
	handle_mm_fault(&f->e, f->last, ADDR, false);
	struct walk_stats before = walks_so_far(f);
	while (bench_keep_running(st)) {
		struct page *page = pte_lookup(f->last, ADDR)->page;
		double t0 = now();
		try_to_unmap(&f->e, page);
		bench_set_iteration_time(st, now() - t0);
		handle_mm_fault(&f->e, f->last, ADDR, false); /* swap it back in, untimed */
	}
	vmas_per_walk(st, f, before);
}

static void bm_anon_vma_fork(struct bench_state *st, void *arg)
{
	struct fixture *f = fixture(st, bm_anon_vma_fork, CHAIN, arg, bench_range(st, 0));
	while (bench_keep_running(st)) {
		double t0 = now();
		struct mm_struct *c = dup_mm(&f->e, f->last);
		bench_set_iteration_time(st, now() - t0);
		exit_mmap(&f->e, c);
	}
	bench_counter(st, "chains", (double)f->e.live[C_AVC], BENCH_COUNTER_PLAIN);
}

/* fork and exit of one more child of a parent that has n already */
static void bm_fork_sibling(struct bench_state *st, void *arg)
{
	struct fixture *f = fixture(st, bm_fork_sibling, FAMILY, arg, bench_range(st, 0));
	while (bench_keep_running(st)) {
		double t0 = now();
		struct mm_struct *c = dup_mm(&f->e, f->parent);
		bench_set_iteration_time(st, now() - t0);
		exit_mmap(&f->e, c);
	}
}

static void bm_exit_sibling(struct bench_state *st, void *arg)
{
	struct fixture *f = fixture(st, bm_exit_sibling, FAMILY, arg, bench_range(st, 0));
	while (bench_keep_running(st)) {
		struct mm_struct *c = dup_mm(&f->e, f->parent);
		handle_mm_fault(&f->e, c, ADDR, true); /* its own COWed page, as the others have */
		double t0 = now();
		exit_mmap(&f->e, c);
		bench_set_iteration_time(st, now() - t0);
	}
}

static void bm_exit_unlink(struct bench_state *st, void *arg)
{
	struct fixture *f = fixture(st, bm_exit_unlink, CHAIN, arg, bench_range(st, 0));
	while (bench_keep_running(st)) {
		struct mm_struct *c = dup_mm(&f->e, f->last);
		double t0 = now();
		exit_mmap(&f->e, c); /* zap, unlink_anon_vmas, free */
		bench_set_iteration_time(st, now() - t0);
	}
}

void register_engine_benchmarks(void);

void register_engine_benchmarks(void)
{
	static char names[6][4][64];
	static const struct {
		const char *op;
		bench_fn fn;
		bool manual;
		long max;
	} ops[] = {
		{ "page_referenced", bm_page_referenced, false, 10000 },
		{ "try_to_unmap", bm_try_to_unmap, true, 10000 },
		{ "anon_vma_fork", bm_anon_vma_fork, true, 1000 },
		{ "exit_unlink_anon_vmas", bm_exit_unlink, true, 1000 },
		{ "anon_vma_fork_sibling", bm_fork_sibling, true, 10000 },
		{ "exit_unlink_anon_vmas_sibling", bm_exit_sibling, true, 10000 },
	};
	for (int o = 0; o < 6; o++) {
		for (int v = 0; rmap_variants[v]; v++) {
			struct bench_def d = { 0 };
			snprintf(names[o][v], sizeof(names[o][v]), "engine/%s/%s", ops[o].op, rmap_variants[v]->name);
			d.name = names[o][v];
			d.fn = ops[o].fn;
			d.arg = (void *)rmap_variants[v];
			for (long n = 1; n <= ops[o].max; n *= 10)
				d.args[d.nargs++] = n;
			d.arg_names[0] = o == 2 || o == 3 ? "depth" : "children";
			d.manual_time = ops[o].manual;
			d.unit = BENCH_NS;
			bench_register(&d);
		}
	}
}
