/* Reclaim as 2.6.33 did it, reduced to what the rmap sees: a clock over
 * the anonymous pages (the active and inactive lists' second chance). A
 * page is looked at with page_referenced, and when no pte had it young it
 * is unmapped with try_to_unmap and written to swap. Both walks run on the
 * engine, which counts the VMAs they visit; each holds its anon_vma lock
 * for sim_walk_ns plus sim_vma_ns a VMA.
 *
 * kswapd reclaims from the low mark to the high one. An allocation under
 * the min mark reclaims itself, SWAP_CLUSTER_MAX pages (try_to_free_pages),
 * and when it frees nothing waits in congestion_wait, as io_schedule does:
 * iowait. The marks are the kernel's: min_free_kbytes = sqrt(16 x RAM KiB)
 * (init_per_zone_wmark_min), low = min x 5/4, high = min x 3/2.
 *
 * While there is page cache, the scan is split as get_scan_ratio split it
 * when both lists rotate alike: swappiness / 200 of it on anon pages, the
 * rest on clean cache, which goes without a walk or a write (its rmap is
 * the file's, not the anon_vma's). */
#include "machine.h"

#define SWAP_CLUSTER_MAX 32
#define CONGESTION_WAIT_NS 100e6 /* congestion_wait(BLK_RW_ASYNC, HZ/10) */
#define MAX_RETRIES 64

static double walk_hold(const struct machine *m, uint64_t vmas_before)
{
	return (m->mp.walk_ns + (double)(m->e.ws.vmas_visited - vmas_before) * m->mp.vma_ns) * m->scale;
}

/* The page under the hand: returns 1 when it was freed, 0 when it was
 * kept, -1 when there is no page at all. */
static int shrink_one(struct machine *m)
{
	struct engine *e = &m->e;
	m->hand = page_pin_next(e, m->hand);
	struct page *page = m->hand;
	if (!page)
		return -1;
	m->pgscan += (uint64_t)m->scale;
	if (page->mapcount == 0) { /* in swap, or on its way out */
		vt_account(m, m->mp.scan_ns * m->scale, false, 0);
		return 0;
	}
	uint64_t v = e->ws.vmas_visited;
	int referenced = page_referenced(e, page);
	vt_account(m, m->mp.scan_ns * m->scale, false, walk_hold(m, v));
	if (referenced)
		return 0; /* activated: a second chance */
	v = e->ws.vmas_visited;
	bool unmapped = try_to_unmap(e, page);
	vt_account(m, m->mp.pageout_ns * m->scale, false, walk_hold(m, v));
	if (!unmapped)
		return 0;
	m->pgsteal += (uint64_t)m->scale;
	m->pswpout += (uint64_t)m->scale;
	vt_swap_write(m, m->cur->ready);
	double backlog = m->dev_free_at - m->cur->ready, congested = m->mp.congestion_ms * 1e6;
	if (backlog > congested) /* the queue is full: wait for it to drain below the mark */
		vt_io_wait(m, m->dev_free_at - congested);
	return 1;
}

/* One scan: a cache page or an anon page, by the swappiness split. */
static int reclaim_one(struct machine *m)
{
	m->scan_seq++;
	double a = m->mp.swappiness / 200.0;
	bool anon = (uint64_t)((double)m->scan_seq * a) != (uint64_t)((double)(m->scan_seq - 1) * a);
	if (!anon && m->cache_kib >= m->mp.page_kib) {
		m->cache_kib -= m->mp.page_kib;
		m->cache_evicted += (uint64_t)m->scale;
		m->pgscan += (uint64_t)m->scale;
		m->pgsteal += (uint64_t)m->scale;
		vt_account(m, m->mp.scan_ns * m->scale, false, 0);
		return 1;
	}
	return shrink_one(m);
}

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

void reclaim_wake_kswapd(struct machine *m)
{
	if (m->kswapd_awake || m->untimed)
		return;
	m->kswapd_awake = true;
	m->kswapd_wakeups++;
	m->kswapd.ready = m->cur->ready;
	vt_push(m, &m->kswapd);
}

/* One scan a step, so that the others' operations interleave with
 * kswapd's walks as they did with its lock holds. */
void kswapd_step(struct machine *m)
{
	m->cur = &m->kswapd;
	if (vt_free_kib(m) >= m->high_kib) {
		m->kswapd_awake = false; /* balanced: back to sleep */
		return;
	}
	int r = reclaim_one(m);
	if (r < 0) {
		m->kswapd_awake = false;
		return;
	}
	m->kswapd_freed += r;
	if (++m->kswapd_scanned % SWAP_CLUSTER_MAX == 0) {
		if (!m->kswapd_freed) /* a batch without progress: balance_pgdat's congestion_wait */
			vt_io_wait(m, m->cur->ready + CONGESTION_WAIT_NS);
		m->kswapd_freed = 0;
	}
	vt_push(m, &m->kswapd);
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
		int freed = 0;
		for (int scanned = 0; freed < SWAP_CLUSTER_MAX && scanned < SWAP_CLUSTER_MAX * 32; scanned++) {
			int r = reclaim_one(m);
			if (r < 0)
				break;
			freed += r;
			if (vt_free_kib(m) >= m->low_kib)
				break;
			vt_yield(m); /* between walks the lock is free for others */
		}
		if (!freed && vt_free_kib(m) < m->min_kib) /* others may have freed meanwhile */
			vt_io_wait(m, m->cur->ready + CONGESTION_WAIT_NS);
	}
}
