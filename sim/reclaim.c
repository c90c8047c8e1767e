/* Reclaim as 2.6.33 did it, reduced to what the rmap sees. The anon pages
 * are on an active and an inactive list (PG_active), each swept by a clock
 * of its own over the engine's pages. Aging moves active pages to the
 * inactive list, walking each with page_referenced; an inactive page
 * looked at with page_referenced goes back to the active list when a pte
 * had it young, else it is unmapped with try_to_unmap and written to
 * swap. Every walk runs on the engine, which counts the VMAs it visits,
 * and holds its anon_vma lock for sim_walk_ns plus sim_vma_ns a VMA.
 *
 * kswapd reclaims from the low mark to the high one. An allocation under
 * the min mark reclaims itself, SWAP_CLUSTER_MAX pages (try_to_free_pages),
 * and when it frees nothing waits in congestion_wait, as io_schedule does:
 * iowait. The marks are the kernel's: min_free_kbytes = sqrt(16 x RAM KiB)
 * (init_per_zone_wmark_min), low = min x 5/4, high = min x 3/2.
 *
 * While there is page cache, the scan is split between it and the anon
 * pages as get_scan_ratio split it (below). Clean cache goes without a
 * walk or a write: its rmap is the file's, not the anon_vma's. */
#include "machine.h"

#include <math.h>

#define SWAP_CLUSTER_MAX 32
#define CONGESTION_WAIT_NS 100e6 /* congestion_wait(BLK_RW_ASYNC, HZ/10) */
#define MAX_RETRIES 64

static double walk_hold(const struct machine *m, uint64_t vmas_before)
{
	return (m->mp.walk_ns + (double)(m->e.ws.vmas_visited - vmas_before) * m->mp.vma_ns) * m->scale;
}

/* The next mapped anon page of the list wanted (active or inactive) after
 * the hand, the hand left on it; NULL when none comes within a window (the
 * lists interleave on one clock: a bounded look, not a second list). */
static struct page *next_on_list(struct machine *m, struct page **hand, bool active)
{
	for (int i = 0; i < 256; i++) {
		*hand = page_pin_next(&m->e, *hand);
		if (!*hand)
			return NULL;
		if ((*hand)->mapcount > 0 && (*hand)->active == active)
			return *hand;
	}
	return NULL;
}

/* shrink_active_list for anon, one page: deactivated whatever its
 * accessed bits say, but walked first to learn and clear them (2.6.33
 * calls page_referenced on every page it moves). */
static void age_one(struct machine *m)
{
	struct page *page = next_on_list(m, &m->age_hand, true);
	if (!page)
		return;
	uint64_t v = m->e.ws.vmas_visited;
	int referenced = page_referenced(&m->e, page);
	vt_account(m, m->mp.scan_ns * m->scale, false, walk_hold(m, v));
	m->recent_scanned[0]++;
	if (referenced)
		m->recent_rotated[0]++;
	page->active = false;
	m->nr_inactive_anon++;
	m->nr_active_anon--;
	m->pgscan += (uint64_t)m->scale;
}

/* shrink_inactive_list for anon, one page: referenced, it goes back to the
 * active list; else try_to_unmap and out to swap. 1 when it was freed,
 * 0 kept, -1 no inactive anon page to be had. */
static int shrink_one(struct machine *m)
{
	struct engine *e = &m->e;
	struct page *page = next_on_list(m, &m->hand, false);
	if (!page)
		return -1;
	m->pgscan += (uint64_t)m->scale;
	uint64_t v = e->ws.vmas_visited;
	int referenced = page_referenced(e, page);
	vt_account(m, m->mp.scan_ns * m->scale, false, walk_hold(m, v));
	m->recent_scanned[0]++;
	if (referenced) {
		m->recent_rotated[0]++;
		page->active = true; /* activated */
		m->nr_active_anon++;
		m->nr_inactive_anon--;
		return 0;
	}
	v = e->ws.vmas_visited;
	bool unmapped = try_to_unmap(e, page);
	vt_account(m, m->mp.pageout_ns * m->scale, false, walk_hold(m, v));
	if (!unmapped)
		return 0;
	m->nr_inactive_anon--;
	m->pgsteal += (uint64_t)m->scale;
	m->pswpout += (uint64_t)m->scale;
	vt_swap_write(m, m->cur->ready);
	double backlog = m->dev_free_at - m->cur->ready, congested = m->mp.congestion_ms * 1e6;
	if (backlog > congested) /* the queue is full: wait for it to drain below the mark */
		vt_io_wait(m, m->dev_free_at - congested);
	return 1;
}

/* The lists' sizes, counted again now and then: pages come and go in the
 * engine (faults, exits) without telling reclaim. */
static void count_lists(struct machine *m)
{
	if (m->count_age++ % 1024)
		return;
	uint64_t act = 0, inact = 0;
	struct page *pg;
	list_for_each_entry(pg, &m->e.pages, lru)
		if (pg->mapcount > 0) {
			act += pg->active;
			inact += !pg->active;
		}
	m->nr_active_anon = (double)act;
	m->nr_inactive_anon = (double)inact;
}

/* inactive_anon_is_low: inactive x ratio < active, the ratio
 * int_sqrt(10 x the zone's GiB) (12 for 16 GiB). */
static bool inactive_anon_is_low(const struct machine *m)
{
	double gb = floor(m->ram_kib / (1024.0 * 1024));
	double ratio = gb >= 1 ? floor(sqrt(10 * gb)) : 1;
	return m->nr_inactive_anon * ratio < m->nr_active_anon;
}

/* get_scan_ratio (2.6.33): the pressure on each list is its priority
 * (swappiness for anon, 200 - swappiness for file) times the share of its
 * recently scanned pages that were not rotated back for being referenced,
 * the recent counts halved once they pass a quarter of the list; and the
 * pages scanned from a list are its size times its share (shrink_zone).
 * With few cache pages left, anon only. A cache page scanned is never
 * found referenced here: reads at random over a file set larger than RAM
 * seldom hit a page twice before reclaim comes to it. Returns the anon
 * share of the next scan. */
static double anon_share(struct machine *m)
{
	double anon = m->nr_inactive_anon, file = m->cache_kib / m->mp.page_kib;
	if ((file + vt_free_kib(m) / m->mp.page_kib) * m->mp.page_kib <= m->high_kib)
		return 1;
	for (int l = 0; l < 2; l++)
		if (m->recent_scanned[l] > (l ? file : anon) / 4) {
			m->recent_scanned[l] /= 2;
			m->recent_rotated[l] /= 2;
		}
	double ap = (m->mp.swappiness + 1) * (m->recent_scanned[0] + 1) / (m->recent_rotated[0] + 1);
	double fp = (200 - m->mp.swappiness + 1) * (m->recent_scanned[1] + 1) / (m->recent_rotated[1] + 1);
	double pa = ap / (ap + fp + 1), wa = anon * pa, wf = file * (1 - pa);
	return wa + wf > 0 ? wa / (wa + wf) : 1;
}

static int evict_cache(struct machine *m)
{
	m->recent_scanned[1]++;
	m->cache_kib -= m->mp.page_kib;
	m->cache_evicted += (uint64_t)m->scale;
	m->pgscan += (uint64_t)m->scale;
	m->pgsteal += (uint64_t)m->scale;
	vt_account(m, m->mp.scan_ns * m->scale, false, 0);
	return 1;
}

/* One step of shrink_zone: the active anon list aged by a page when the
 * inactive one is low (2.6.33 does it whatever it goes on to reclaim),
 * then a cache page or an inactive anon page, in get_scan_ratio's
 * proportion (a running credit, so that the split is exact over many). */
static int reclaim_one(struct machine *m)
{
	count_lists(m);
	if (inactive_anon_is_low(m))
		age_one(m);
	m->anon_credit += anon_share(m);
	bool anon = m->anon_credit >= 1;
	if (anon)
		m->anon_credit -= 1;
	if (!anon && m->cache_kib >= m->mp.page_kib)
		return evict_cache(m);
	int r = shrink_one(m);
	if (r < 0 && m->cache_kib >= m->mp.page_kib) /* no inactive anon page: the cache then */
		return evict_cache(m);
	return r;
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
