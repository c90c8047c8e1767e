/* Who reclaims, and when, as 2.6.33 had it. kswapd wakes under the low
 * mark and runs balance_pgdat until the high one; an allocation under the
 * min mark reclaims itself (try_to_free_pages) and, when that freed
 * nothing, waits in congestion_wait, as io_schedule does: iowait. The
 * marks are the kernel's: min_free_kbytes = sqrt(16 x RAM KiB)
 * (init_per_zone_wmark_min), low = min x 5/4, high = min x 3/2. Both
 * reclaim through shrink_zone (reclaim.c), from DEF_PRIORITY down. */
#include "machine.h"

#include <math.h>

#define MAX_RETRIES 64

/* The readers are not simulated, only their pages: kswapd makes room for
 * them, and the users' own allocations reclaim when it falls behind. */
void filler_step(struct machine *m)
{
	m->cur = &m->filler;
	m->cache_kib += m->mp.cache_mbps * 1e6 / 1024.0 * (FILL_STEP_NS / 1e9);
	if (vt_free_kib(m) < m->low_kib)
		reclaim_wake_kswapd(m);
	m->filler.ready += FILL_STEP_NS;
	vt_push(m, &m->filler);
}

/* congestion_wait(BLK_RW_ASYNC, HZ/10): a reclaimer's nap, on its own
 * stack in the profile */
static void congestion_wait(struct machine *m)
{
	sim_prof_op(m,
		    m->cur == &m->kswapd ? "kswapd;balance_pgdat;congestion_wait"
					 : "__alloc_pages_nodemask;try_to_free_pages;congestion_wait",
		    NULL);
	vt_io_wait(m, m->cur->ready + CONGESTION_WAIT_NS);
}

void reclaim_wake_kswapd(struct machine *m)
{
	if (m->kswapd_awake || m->untimed)
		return;
	m->kswapd_awake = true;
	m->kswapd_wakeups++;
	m->kswapd_priority = DEF_PRIORITY;
	m->kswapd_zone = 0;
	m->kswapd_pass_freed = m->kswapd_pass_scanned = 0;
	m->kswapd.ready = m->cur->ready;
	vt_push(m, &m->kswapd);
}

/* balance_pgdat, a page a step, so that the others' operations interleave
 * with kswapd's walks as they did with its lock holds. Each pass at a
 * priority goes down the zones from the highest, aging SWAP_CLUSTER_MAX
 * active anon pages of each whose inactive list is low ("to give pages a
 * chance to be referenced before reclaiming") until one is under its high
 * mark: the highest, the marks being each zone's share of the machine's.
 * Then it runs shrink_zone, with no reclaim target, on each zone from the
 * lowest up to that one. The zones balanced, kswapd sleeps; a pass that
 * freed SWAP_CLUSTER_MAX starts over at DEF_PRIORITY, one that did not
 * goes a priority lower, and below DEF_PRIORITY - 2, when it scanned,
 * waits in congestion_wait first. */
void kswapd_step(struct machine *m)
{
	m->cur = &m->kswapd;
	struct shrink_plan *sp = &m->kswapd_plan;
	if (!sp->active) {
		bool first = m->kswapd_zone == 0;
		if (first && vt_free_kib(m) >= m->high_kib) {
			m->kswapd_awake = false; /* balanced: back to sleep */
			return;
		}
		/* its nr_to_reclaim is ULONG_MAX; the pass's aging comes first */
		shrink_zone_begin(m, sp, m->kswapd_zone, m->kswapd_priority, HUGE_VAL, first ? m->nr_zones - 1 : -1);
	}
	int r = shrink_zone_step(m, sp);
	if (r >= 0) {
		m->kswapd_pass_freed += r;
		vt_push(m, &m->kswapd);
		return;
	}
	m->kswapd_pass_scanned += sp->scanned;
	if (++m->kswapd_zone < m->nr_zones) { /* the pass's next zone */
		vt_push(m, &m->kswapd);
		return;
	}
	m->kswapd_zone = 0;
	if (m->kswapd_pass_freed * m->scale >= SWAP_CLUSTER_MAX) {
		m->kswapd_priority = DEF_PRIORITY;
	} else {
		if (m->kswapd_pass_scanned && m->kswapd_priority < DEF_PRIORITY - 2)
			congestion_wait(m);
		if (m->kswapd_priority > 0)
			m->kswapd_priority--;
	}
	m->kswapd_pass_freed = m->kswapd_pass_scanned = 0;
	vt_push(m, &m->kswapd);
}

/* try_to_free_pages: from DEF_PRIORITY down, shrink_zones (shrink_zone on
 * each zone of the zonelist, Normal then DMA32) until a pass has
 * reclaimed SWAP_CLUSTER_MAX, yielding between pages (between walks the
 * lock is free for others); below DEF_PRIORITY - 2 a pass that scanned
 * but fell short naps in congestion_wait. Returns the engine pages freed. */
static double try_to_free_pages(struct machine *m)
{
	double freed = 0;
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		double scanned = 0;
		for (int z = m->nr_zones - 1; z >= 0; z--) {
			struct shrink_plan sp;
			/* the target is the whole pass's: sc->nr_reclaimed carries over */
			shrink_zone_begin(m, &sp, z, priority, SWAP_CLUSTER_MAX / m->scale - freed, -1);
			int r;
			while ((r = shrink_zone_step(m, &sp)) >= 0) {
				freed += r;
				vt_yield(m);
			}
			scanned += sp.scanned;
		}
		if (freed * m->scale >= SWAP_CLUSTER_MAX)
			break;
		if (scanned && priority < DEF_PRIORITY - 2) /* "take a nap" */
			congestion_wait(m);
	}
	return freed;
}

void reclaim_before_alloc(struct machine *m)
{
	if (m->untimed)
		return;
	double free_kib = vt_free_kib(m), used = m->ram_kib - free_kib - m->cache_kib;
	if (used > m->peak_used_kib)
		m->peak_used_kib = used;
	if (free_kib < m->low_kib)
		reclaim_wake_kswapd(m);
	if (free_kib >= m->min_kib)
		return;
	/* __alloc_pages_slowpath: reclaim, and wait when that freed nothing,
	 * until the page can be had; past MAX_RETRIES rounds the page is
	 * taken anyway (the kernel would OOM-kill; the point says so) */
	for (int round = 0; vt_free_kib(m) < m->min_kib; round++) {
		if (round == MAX_RETRIES) {
			m->overcommits++;
			return;
		}
		m->allocstall++;
		if (!try_to_free_pages(m) && vt_free_kib(m) < m->min_kib) /* others may have freed meanwhile */
			congestion_wait(m);
	}
}
