/* anon_vma and anon_vma_chain objects, as every design allocates and
 * frees them: freed anon_vmas stay in quarantine (see below) unless the
 * engine says otherwise. */
#include "engine.h"

#include <stdlib.h>

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
	if (e->no_quarantine)
		list_del(&av->all);
	pthread_mutex_unlock(&e->stats_lock);
	if (e->no_quarantine) {
		pthread_rwlock_destroy(&av->lock.rw);
		free(av);
	}
}

struct anon_vma_chain *anon_vma_chain_alloc(struct engine *e)
{
	return engine_alloc(e, C_AVC);
}

void anon_vma_chain_free(struct engine *e, struct anon_vma_chain *avc)
{
	engine_free(e, C_AVC, avc);
}
