/* A recorded trace replayed on one design: the counts of walkcost.c taken
 * at the trace's peak and at its end. The peak is found by a first pass
 * (any design: which pages are mapped does not depend on the rmap), so
 * that every design is counted at the same moment of the history. */
#include "replay.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t list_len(const struct list_head *head)
{
	uint64_t n = 0;
	for (const struct list_head *p = head->next; p != head; p = p->next)
		n++;
	return n;
}

static void census(struct trace_ctx *t, struct replay_census *c)
{
	struct engine *e = t->e;
	struct walk_stats saved = e->ws;
	memset(c, 0, sizeof(*c));
	c->taken = true;
	c->op = t->ops;
	c->procs = t->live;
	c->pages = e->nr_mapped_pages;
	c->anon_vmas = e->live[C_ANON_VMA];
	c->avcs = e->live[C_AVC];
	c->bytes_pages = e->live[C_PAGE] * cache_sizes[C_PAGE];
	struct mm_struct *mm;
	list_for_each_entry(mm, &e->mms, mmlist) {
		c->vmas += (uint64_t)mm->nr_vmas;
		c->bytes_ptes += mm->cap_ptes * sizeof(struct pte);
	}
	struct anon_vma *av;
	list_for_each_entry(av, &e->anon_vmas, all) {
		uint64_t n = av->freed ? 0 : list_len(&av->head);
		if (n > c->longest_chain)
			c->longest_chain = n;
	}
	struct page *pg;
	memset(&e->ws, 0, sizeof(e->ws));
	list_for_each_entry(pg, &e->pages, lru)
		if (pg->mapcount > 0)
			rmap_walk_full(e, pg);
	c->walk = e->ws;
	memset(&e->ws, 0, sizeof(e->ws));
	list_for_each_entry(pg, &e->pages, lru)
		if (pg->mapcount > 0)
			page_referenced(e, pg);
	c->referenced = e->ws;
	e->ws = saved;
}

/* This process's resident bytes (statm's second field), 0 when unknown. */
static size_t resident_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "re");
	unsigned long size = 0, rss = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &rss) != 2)
		rss = 0;
	fclose(f);
	return rss * (size_t)sysconf(_SC_PAGESIZE);
}

int replay_run(const struct rmap_ops *ops, replay_next_fn next, void *arg, const struct replay_opts *o,
	       struct replay_result *out, char *err, size_t errlen)
{
	struct engine e;
	struct trace_ctx t;
	memset(out, 0, sizeof(*out));
	engine_init(&e, ops);
	/* single-threaded, and a million forks; the checker's reports of a
	 * freed anon_vma need the quarantine */
	e.no_quarantine = !o->check;
	trace_init(&t, &e);
	t.strict = o->strict;
	double t0 = now();
	const char *line;
	unsigned long lineno = 0, since_budget = 0;
	int rc = 0;
	while ((line = next(arg, &lineno))) {
		char msg[200];
		uint64_t ops = t.ops;
		if (trace_exec(&t, line, msg, sizeof(msg)) < 0) {
			snprintf(err, errlen, "%lu: %s", lineno, msg);
			rc = -1;
			break;
		}
		if (e.nr_mapped_pages > out->peak_pages) {
			out->peak_pages = e.nr_mapped_pages;
			out->peak_op = t.ops;
		}
		if (o->census_op && t.ops == o->census_op && !out->peak.taken)
			census(&t, &out->peak);
		if (o->check && t.ops != ops) /* an operation: not a comment, a blank or a check line */
			engine_check(&e);
		size_t rss;
		if (o->max_bytes && ++since_budget == REPLAY_BUDGET_EVERY &&
		    (since_budget = 0, rss = resident_bytes()) > o->max_bytes) {
			snprintf(err, errlen, "%lu: over the memory budget: %zu MiB resident after %llu operations, "
				 "the budget %zu MiB (--max-mib)", lineno, rss >> 20, (unsigned long long)t.ops,
				 o->max_bytes >> 20);
			rc = -1;
			break;
		}
	}
	if (!rc && e.nr_mapped_pages)
		census(&t, &out->end);
	out->ops = t.ops;
	out->refused = t.refused;
	out->procs_max = t.live_max;
	trace_exit_all(&t);
	if (o->check)
		engine_check(&e);
	out->faults = engine_fault_count(&e);
	if (e.nfaults)
		out->first_fault = e.faults[0];
	engine_destroy(&e);
	out->replay_s = now() - t0;
	return rc;
}
