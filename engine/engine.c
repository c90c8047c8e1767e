/* The engine's state, its fault log, and the helpers every design shares:
 * the allocation of anon_vmas and chains, and the instrumented lock. */
#include "engine.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const struct rmap_ops *const rmap_variants[] = { &rmap_legacy, &rmap_avc_rc, &rmap_avc, &rmap_modern, NULL };
_Static_assert(sizeof(rmap_variants) / sizeof(rmap_variants[0]) - 1 <= RMAP_MAX_VARIANTS,
	       "fuzz lanes and sweeps hold at most RMAP_MAX_VARIANTS designs");

const struct rmap_ops *rmap_ops_find(const char *name)
{
	for (int i = 0; rmap_variants[i]; i++)
		if (!strcmp(rmap_variants[i]->name, name))
			return rmap_variants[i];
	return NULL;
}

void engine_init(struct engine *e, const struct rmap_ops *ops)
{
	memset(e, 0, sizeof(*e));
	e->ops = ops;
	INIT_LIST_HEAD(&e->mms);
	INIT_LIST_HEAD(&e->pages);
	INIT_LIST_HEAD(&e->anon_vmas);
	pthread_mutex_init(&e->stats_lock, NULL);
	pthread_mutex_init(&e->ptl, NULL);
	pthread_mutex_init(&e->lru_lock, NULL);
}

void engine_set_threaded(struct engine *e)
{
	e->threaded = true;
}

void ptl_lock(struct engine *e)
{
	if (e->threaded)
		pthread_mutex_lock(&e->ptl);
}

void ptl_unlock(struct engine *e)
{
	if (e->threaded)
		pthread_mutex_unlock(&e->ptl);
}

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

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* lock_stat's figures: a contention is an acquisition that had to wait.
 * Atomics, because readers count side by side; under the write side they
 * cost next to nothing. Returns when the hold began. */
static uint64_t lock_acquire(struct engine_lock *l, int (*trylock)(pthread_rwlock_t *),
			     int (*lock)(pthread_rwlock_t *))
{
	if (trylock(&l->rw) != 0) {
		uint64_t t0 = now_ns();
		lock(&l->rw);
		__atomic_add_fetch(&l->contentions, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&l->wait_ns, now_ns() - t0, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&l->acquisitions, 1, __ATOMIC_RELAXED);
	return now_ns();
}

static void lock_release(struct engine_lock *l, uint64_t acquired)
{
	__atomic_add_fetch(&l->hold_ns, now_ns() - acquired, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&l->rw);
}

void anon_vma_lock(struct engine *e, struct anon_vma *av)
{
	(void)e;
	av->lock.t_acquired = lock_acquire(&av->lock, pthread_rwlock_trywrlock, pthread_rwlock_wrlock);
}

void anon_vma_unlock(struct engine *e, struct anon_vma *av)
{
	(void)e;
	lock_release(&av->lock, av->lock.t_acquired);
}

/* A thread holds at most one anon_vma shared at a time (a walk locks its
 * root and nothing else), so its start of hold can live in the thread. */
static _Thread_local uint64_t read_acquired;

void anon_vma_down_read(struct engine *e, struct anon_vma *av)
{
	(void)e;
	read_acquired = lock_acquire(&av->lock, pthread_rwlock_tryrdlock, pthread_rwlock_rdlock);
}

void anon_vma_up_read(struct engine *e, struct anon_vma *av)
{
	(void)e;
	lock_release(&av->lock, read_acquired);
}

struct anon_vma *anon_vma_alloc_common(struct engine *e)
{
	struct anon_vma *av = engine_alloc(e, C_ANON_VMA);
	if (!av)
		return NULL;
	INIT_LIST_HEAD(&av->head);
	/* a waiting writer holds back new readers, as the kernel's rwsem
	 * queues readers behind a waiting writer; glibc's default would let a
	 * stream of walks starve fork and exit */
	pthread_rwlockattr_t attr;
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&av->lock.rw, &attr);
	pthread_rwlockattr_destroy(&attr);
	av->id = __atomic_add_fetch(&e->next_anon_vma, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&e->stats_lock);
	list_add_tail(&av->all, &e->anon_vmas);
	pthread_mutex_unlock(&e->stats_lock);
	return av;
}

/* Freed anon_vmas stay in quarantine, marked, until the engine goes: a
 * page that still points at one is then a report, not a use-after-free. */
void anon_vma_free_common(struct engine *e, struct anon_vma *av)
{
	__atomic_store_n(&av->freed, true, __ATOMIC_RELEASE);
	__atomic_sub_fetch(&e->live[C_ANON_VMA], 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&e->bytes[C_ANON_VMA], sizeof(*av), __ATOMIC_RELAXED);
	/* a walker may still be taking the lock of what it found: its
	 * figures are read under the lock they describe */
	pthread_rwlock_wrlock(&av->lock.rw);
	struct engine_lock l = av->lock;
	pthread_rwlock_unlock(&av->lock.rw);
	pthread_mutex_lock(&e->stats_lock);
	e->locks.acquisitions += l.acquisitions;
	e->locks.contentions += l.contentions;
	e->locks.wait_ns += l.wait_ns;
	e->locks.hold_ns += l.hold_ns;
	pthread_mutex_unlock(&e->stats_lock);
}

struct anon_vma_chain *anon_vma_chain_alloc(struct engine *e)
{
	return engine_alloc(e, C_AVC);
}

void anon_vma_chain_free(struct engine *e, struct anon_vma_chain *avc)
{
	engine_free(e, C_AVC, avc);
}

void engine_destroy(struct engine *e)
{
	while (!list_empty(&e->mms))
		exit_mmap(e, list_first_entry(&e->mms, struct mm_struct, mmlist));
	struct page *pg, *pn;
	list_for_each_entry_safe(pg, pn, &e->pages, lru) {
		list_del(&pg->lru);
		engine_free(e, C_PAGE, pg);
	}
	struct anon_vma *av, *an;
	list_for_each_entry_safe(av, an, &e->anon_vmas, all) {
		if (!av->freed)
			anon_vma_free_common(e, av);
		list_del(&av->all);
		pthread_rwlock_destroy(&av->lock.rw);
		free(av);
	}
	free(e->faults);
	pthread_mutex_destroy(&e->stats_lock);
	pthread_mutex_destroy(&e->ptl);
	pthread_mutex_destroy(&e->lru_lock);
}
