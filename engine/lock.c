/* The locks: the page table lock (threaded runs only) and the anon_vma
 * lock, a real reader-writer lock instrumented as lock_stat instruments
 * one (acquisitions, contentions, wait and hold time). */
#include "engine.h"

#include <time.h>

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
	if (e->lock_hook)
		e->lock_hook(e->lock_hook_arg, av, false);
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
	if (e->lock_hook)
		e->lock_hook(e->lock_hook_arg, av, true);
	read_acquired = lock_acquire(&av->lock, pthread_rwlock_tryrdlock, pthread_rwlock_rdlock);
}

void anon_vma_up_read(struct engine *e, struct anon_vma *av)
{
	(void)e;
	lock_release(&av->lock, read_acquired);
}
