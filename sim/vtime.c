/* Virtual time: tasks queue for CPUs, for anon_vma locks and for the swap
 * device. A task ready while a CPU is free runs; else it waits in a FIFO
 * run queue for the first CPU to free, and then keeps that CPU for a slice
 * unless it blocks, as CFS shares CPUs among many runnable tasks. An
 * operation holds its CPU from start to end (no preemption inside one:
 * operations are short but for compute jobs, which a 2010 kernel did not
 * preempt for a lock either).
 *
 * The lock: a walk holds its anon_vma lock for the walk's cost, fork and
 * exit for each link and unlink. On 2.6.33 and 2.6.34 (legacy, avc-rc,
 * avc) the lock was a spinlock, so a CPU that wants it while it is held
 * spins: system time, and the lock's wait. On 6.1 (modern) it is an rwsem:
 * walks share it, and a waiter sleeps, its CPU free for others. */
#include "coro.h"
#include "machine.h"

#include <stdlib.h>

static bool before(const struct task *a, const struct task *b)
{
	return a->ready < b->ready || (a->ready == b->ready && a->id < b->id);
}

static void heap_swap(struct machine *m, size_t i, size_t j)
{
	struct task *t = m->heap[i];
	m->heap[i] = m->heap[j];
	m->heap[j] = t;
	m->heap[i]->heap_i = i;
	m->heap[j]->heap_i = j;
}

void vt_push(struct machine *m, struct task *t)
{
	size_t i = m->nheap++;
	m->heap[i] = t;
	t->heap_i = i;
	t->queued = true;
	while (i && before(m->heap[i], m->heap[(i - 1) / 2])) {
		heap_swap(m, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

struct task *vt_pop(struct machine *m)
{
	if (!m->nheap)
		return NULL;
	struct task *top = m->heap[0];
	heap_swap(m, 0, --m->nheap);
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, s = i;
		if (l < m->nheap && before(m->heap[l], m->heap[s]))
			s = l;
		if (r < m->nheap && before(m->heap[r], m->heap[s]))
			s = r;
		if (s == i)
			break;
		heap_swap(m, i, s);
		i = s;
	}
	top->queued = false;
	return top;
}

void vt_lock_hook(void *arg, struct anon_vma *av, bool shared)
{
	struct machine *m = arg;
	for (int i = 0; i < m->nlocks; i++)
		if (m->locks[i].l == &av->lock && m->locks[i].shared == shared) {
			m->locks[i].n++;
			return;
		}
	if (m->nlocks < 8)
		m->locks[m->nlocks++] = (struct lock_taken){ &av->lock, shared, 1 };
	else
		m->locks[7].n++; /* past eight locks in one operation, the last counts the rest */
}

static int first_free_cpu(const struct machine *m)
{
	int c = 0;
	for (int i = 1; i < m->mp.cpus; i++)
		if (m->cpu_free[i] < m->cpu_free[c])
			c = i;
	return c;
}

/* A task goes on with its CPU while its slice lasts (CFS preempts a task
 * only at a tick past its slice, and nothing here blocks without saying) */
static bool continuing(const struct machine *m, const struct task *t)
{
	return t->cpu < m->mp.cpus && m->cpu_free[t->cpu] <= t->ready && t->ready < t->slice_end;
}

struct task *vt_next(struct machine *m)
{
	for (;;) {
		double f = m->cpu_free[first_free_cpu(m)];
		struct task *top = m->nheap ? m->heap[0] : NULL;
		if (m->nrunq && (!top || f < top->ready || (f == top->ready && !continuing(m, top)))) {
			struct task *t = m->runq[m->runq_head];
			m->runq_head = (m->runq_head + 1) % m->runq_cap;
			m->nrunq--;
			if (t->ready < f)
				t->ready = f;
			t->slice_end = t->ready + m->slice_ns;
			return t;
		}
		struct task *t = vt_pop(m);
		/* the filler takes no CPU */
		if (!t || t == &m->filler || continuing(m, t))
			return t;
		if (!m->nrunq && f <= t->ready) {
			t->slice_end = t->ready + m->slice_ns;
			return t;
		}
		m->runq[(m->runq_head + m->nrunq++) % m->runq_cap] = t;
	}
}

static void charge(struct machine *m, double ns, bool user)
{
	if (user) {
		m->user_ns += ns;
		m->cur->user_ns += ns;
	} else {
		m->sys_ns += ns;
		m->cur->sys_ns += ns;
	}
}

void vt_account(struct machine *m, double cpu_ns, bool user, double hold_ns)
{
	int nlocks = m->nlocks;
	m->nlocks = 0;
	if (m->untimed)
		return;
	struct task *t = m->cur;
	/* a task stays on its CPU while that CPU is free for it: hopping to
	 * another would leave its own idle and claim the other's future */
	int c = t->cpu < m->mp.cpus && m->cpu_free[t->cpu] <= t->ready ? t->cpu : first_free_cpu(m);
	double on = t->ready > m->cpu_free[c] ? t->ready : m->cpu_free[c]; /* on its CPU since */
	double x = on + cpu_ns, sys_from = user ? x : on;
	charge(m, cpu_ns, user);
	sim_prof_add(m, user ? "[user]" : NULL, cpu_ns);
	for (int i = 0; i < nlocks; i++) {
		struct lock_taken *lt = &m->locks[i];
		struct engine_lock *l = lt->l;
		for (int k = 0; k < lt->n; k++) {
			double avail = l->vt_write_free;
			if (!lt->shared && l->vt_read_free > avail)
				avail = l->vt_read_free;
			m->acquisitions++;
			if (avail > x) {
				m->contentions++;
				m->lock_wait_ns += avail - x;
				sim_prof_add(m,
					     !m->lock_sleeps  ? "_spin_lock"
					     : lt->shared     ? "rwsem_down_read_slowpath"
							      : "rwsem_down_write_slowpath",
					     avail - x);
				if (m->lock_sleeps) { /* the CPU goes to others meanwhile */
					tl_add(&m->tl, TL_BUSY, on, x);
					tl_add(&m->tl, TL_SYS, sys_from, x);
					m->cpu_free[c] = x;
					c = first_free_cpu(m);
					x = avail > m->cpu_free[c] ? avail : m->cpu_free[c];
					on = sys_from = x;
				} else {
					m->spin_ns += avail - x;
					charge(m, avail - x, false);
					x = avail;
				}
			}
			x += hold_ns;
			charge(m, hold_ns, false);
			sim_prof_add(m, m->prof_hold ? m->prof_hold : "anon_vma_lock", hold_ns);
			if (lt->shared) {
				if (x > l->vt_read_free)
					l->vt_read_free = x;
			} else {
				l->vt_write_free = x;
			}
		}
	}
	tl_add(&m->tl, TL_BUSY, on, x);
	tl_add(&m->tl, TL_SYS, sys_from, x);
	m->cpu_free[c] = x;
	t->cpu = c;
	t->ready = x;
	if (x > m->mp.max_virtual_s * 1e9)
		m->overrun = true;
}

void vt_io_wait(struct machine *m, double until)
{
	if (m->untimed || until <= m->cur->ready)
		return;
	tl_add(&m->tl, TL_IOWAIT, m->cur->ready, until);
	sim_prof_add(m, "io_schedule", until - m->cur->ready);
	m->cur->ready = until;
	m->cur->slice_end = 0; /* it slept: back in the queue when it wakes */
}

void vt_yield(struct machine *m)
{
	if (!m->untimed && m->cur->co)
		coro_yield();
}

double vt_free_kib(const struct machine *m)
{
	return m->ram_kib - (double)m->e.nr_mapped_pages * m->mp.page_kib - (double)m->nproc * m->mp.proc_kib -
	       m->cache_kib;
}

static double xfer_ns(const struct machine *m)
{
	return m->mp.page_kib * 1024.0 / (m->mp.swap_mbps * 1e6) * 1e9;
}

/* A read seeks, and the device does one thing at a time: it is busy for
 * the seek and the transfer. Writes go out in clusters, without a seek
 * each (swap allocates its slots sequentially). */
double vt_swap_read(struct machine *m, double at)
{
	double start = at > m->dev_free_at ? at : m->dev_free_at;
	m->dev_free_at = start + m->mp.swap_latency_ms * 1e6 + xfer_ns(m);
	return m->dev_free_at;
}

void vt_swap_write(struct machine *m, double at)
{
	double start = at > m->dev_free_at ? at : m->dev_free_at;
	m->dev_free_at = start + xfer_ns(m);
}
