/* The engine's operations per design, against N:
 *   page_referenced, try_to_unmap  one walk of the last of N forked
 *       children's COWed page (legacy scans the family to find it)
 *   anon_vma_fork, exit_unlink_anon_vmas   fork and exit of a process at
 *       fork depth N (its vma's chain has N+1 entries in the chain designs)
 *   *_sibling   the same for one more child of a parent with N children
 * Operations too short for PauseTiming are timed by hand (manual time). */
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

/* A parent with one faulted page and n children that each COW it. */
static struct mm_struct *family(struct engine *e, const struct rmap_ops *ops, long n, struct mm_struct **last)
{
	engine_init(e, ops);
	struct mm_struct *parent = mm_alloc(e);
	do_mmap(e, parent, ADDR, 1, VM_READ | VM_WRITE);
	handle_mm_fault(e, parent, ADDR, true);
	*last = parent;
	for (long k = 0; k < n; k++) {
		*last = dup_mm(e, parent);
		handle_mm_fault(e, *last, ADDR, true);
	}
	return parent;
}

/* A chain of n nested forks, each writing its page: the depth-n process. */
static struct mm_struct *chain(struct engine *e, const struct rmap_ops *ops, long n)
{
	engine_init(e, ops);
	struct mm_struct *p = mm_alloc(e);
	do_mmap(e, p, ADDR, 1, VM_READ | VM_WRITE);
	handle_mm_fault(e, p, ADDR, true);
	for (long k = 0; k < n; k++) {
		p = dup_mm(e, p);
		handle_mm_fault(e, p, ADDR, true);
	}
	return p;
}

static void bm_page_referenced(struct bench_state *st, void *arg)
{
	struct engine e;
	struct mm_struct *last;
	family(&e, arg, bench_range(st, 0), &last);
	struct page *page = pte_lookup(last, ADDR)->page;
	while (bench_keep_running(st))
		page_referenced(&e, page);
	bench_counter(st, "vmas_per_walk", (double)e.ws.vmas_visited / (double)e.ws.walks, BENCH_COUNTER_PLAIN);
	engine_destroy(&e);
}

static void bm_try_to_unmap(struct bench_state *st, void *arg)
{
	struct engine e;
	struct mm_struct *last;
	family(&e, arg, bench_range(st, 0), &last);
	while (bench_keep_running(st)) {
		struct page *page = pte_lookup(last, ADDR)->page;
		double t0 = now();
		try_to_unmap(&e, page);
		bench_set_iteration_time(st, now() - t0);
		handle_mm_fault(&e, last, ADDR, false); /* swap it back in, untimed */
	}
	bench_counter(st, "vmas_per_walk", (double)e.ws.vmas_visited / (double)e.ws.walks, BENCH_COUNTER_PLAIN);
	engine_destroy(&e);
}

static void bm_anon_vma_fork(struct bench_state *st, void *arg)
{
	struct engine e;
	struct mm_struct *p = chain(&e, arg, bench_range(st, 0));
	while (bench_keep_running(st)) {
		double t0 = now();
		struct mm_struct *c = dup_mm(&e, p);
		bench_set_iteration_time(st, now() - t0);
		exit_mmap(&e, c);
	}
	bench_counter(st, "chains", (double)e.live[C_AVC], BENCH_COUNTER_PLAIN);
	engine_destroy(&e);
}

/* fork and exit of one more child of a parent that has n already */
static void bm_fork_sibling(struct bench_state *st, void *arg)
{
	struct engine e;
	struct mm_struct *last;
	struct mm_struct *parent = family(&e, arg, bench_range(st, 0), &last);
	while (bench_keep_running(st)) {
		double t0 = now();
		struct mm_struct *c = dup_mm(&e, parent);
		bench_set_iteration_time(st, now() - t0);
		exit_mmap(&e, c);
	}
	engine_destroy(&e);
}

static void bm_exit_sibling(struct bench_state *st, void *arg)
{
	struct engine e;
	struct mm_struct *last;
	struct mm_struct *parent = family(&e, arg, bench_range(st, 0), &last);
	while (bench_keep_running(st)) {
		struct mm_struct *c = dup_mm(&e, parent);
		handle_mm_fault(&e, c, ADDR, true); /* its own COWed page, as the others have */
		double t0 = now();
		exit_mmap(&e, c);
		bench_set_iteration_time(st, now() - t0);
	}
	engine_destroy(&e);
}

static void bm_exit_unlink(struct bench_state *st, void *arg)
{
	struct engine e;
	struct mm_struct *p = chain(&e, arg, bench_range(st, 0));
	while (bench_keep_running(st)) {
		struct mm_struct *c = dup_mm(&e, p);
		double t0 = now();
		exit_mmap(&e, c); /* zap, unlink_anon_vmas, free */
		bench_set_iteration_time(st, now() - t0);
	}
	engine_destroy(&e);
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
