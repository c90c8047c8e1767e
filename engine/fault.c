/* The fault log: what the checker and the walks report, the last
 * operations for each report, and known findings. */
#include "engine.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void engine_note_op(struct engine *e, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&e->stats_lock);
	va_start(ap, fmt);
	vsnprintf(e->history[e->hist_pos++ % 16], sizeof(e->history[0]), fmt, ap);
	va_end(ap);
	e->ops_done++;
	pthread_mutex_unlock(&e->stats_lock);
}

/* A fault is a report, never a crash: the operations that led to it are
 * appended so that it can be replayed. */
void engine_finding(struct engine *e, const char *name)
{
	e->finding = name;
	e->nfindings++;
}

/* Every kind of fault a report can carry, and what it means. */
const struct fault_kind fault_kinds[] = {
	{ "dangling_anon_vma", "a mapped page's anon_vma was freed (the 2.6.34-rc oops)" },
	{ "rmap_unreachable", "a present pte the rmap walk of its page does not reach" },
	{ "no_anon_vma", "a mapped anonymous page with no anon_vma" },
	{ "bad_index", "a page's index disagrees with the address and pgoff that map it" },
	{ "stray_pte", "a pte outside every vma" },
	{ "count_imbalance", "mapcount, swapcount, refcount, num_children or num_active_vmas off" },
	{ "chain_mismatch", "a vma's chain and an anon_vma's list disagree" },
	{ "chain_to_freed", "a chain links a freed anon_vma" },
	{ "chain_order", "a chain whose last entry is not the vma's oldest anon_vma" },
	{ "merge_mismatch", "vmas merged across different anon_vmas" },
	{ "interval_tree", "modern's interval tree out of order, augmentation or step" },
	{ "root_freed_first", "a live anon_vma whose root was freed" },
	{ "leak", "objects left after every process exited" },
	{ "divergence", "pages mapped differently from legacy (differential fuzzing)" },
	{ NULL, NULL },
};

bool fault_kind_known(const char *kind)
{
	for (const struct fault_kind *k = fault_kinds; k->name; k++)
		if (!strcmp(k->name, kind))
			return true;
	return false;
}

void engine_fault(struct engine *e, const char *kind, const char *fmt, ...)
{
	assert(fault_kind_known(kind));
	char detail[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&e->stats_lock);
	/* the first reports are the ones anyone reads; past them, only count
	 * (avc-rc under the fuzzer breaks on almost every operation) */
	if (e->nfaults >= 256) {
		e->faults_dropped++;
		pthread_mutex_unlock(&e->stats_lock);
		return;
	}
	/* a broken state is found again after every later operation: once */
	for (size_t i = 0; i < e->nfaults; i++)
		if (!strcmp(e->faults[i].kind, kind) && !strcmp(e->faults[i].detail, detail)) {
			pthread_mutex_unlock(&e->stats_lock);
			return;
		}
	if (e->nfaults == e->cap_faults) {
		size_t cap = e->cap_faults ? e->cap_faults * 2 : 16;
		struct fault *f = realloc(e->faults, cap * sizeof(*f));
		if (!f)
			abort();
		e->faults = f;
		e->cap_faults = cap;
	}
	struct fault *f = &e->faults[e->nfaults++];
	snprintf(f->kind, sizeof(f->kind), "%s", kind);
	snprintf(f->detail, sizeof(f->detail), "%s", detail);
	f->op = e->ops_done;
	pthread_mutex_unlock(&e->stats_lock);
}

size_t engine_fault_count(const struct engine *e)
{
	return e->nfaults + e->faults_dropped;
}

bool engine_has_fault(const struct engine *e, const char *kind)
{
	for (size_t i = 0; i < e->nfaults; i++)
		if (!strcmp(e->faults[i].kind, kind))
			return true;
	return false;
}
