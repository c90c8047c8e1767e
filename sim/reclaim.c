/* shrink_zone as 2.6.33 did it, reduced to what the rmap sees. The anon
 * pages are on an active and an inactive list (PG_active), each swept by a
 * clock of its own over the engine's pages. Aging (shrink_active_list)
 * moves active pages to the inactive list, walking each with
 * page_referenced; an inactive page looked at with page_referenced
 * (shrink_page_list) goes back to the active list when a pte had it young,
 * else it is unmapped with try_to_unmap and written to swap. Every walk
 * runs on the engine, which counts the VMAs it visits, and holds its
 * anon_vma lock for sim_walk_ns plus its VMAs' measured cost. Clean cache goes
 * without a walk or a write: its rmap is the file's, not the anon_vma's.
 *
 * How much of each list one call scans is the kernel's arithmetic, not a
 * rate of ours: each list's size >> priority, times get_scan_ratio's
 * share, batched by nr_scan_try_batch; and at its end SWAP_CLUSTER_MAX
 * active anon pages aged when the inactive list is low. Who calls it and
 * how often (kswapd, direct reclaim) is kswapd.c. */
#include "machine.h"

#include <math.h>


/* The walk's cost: its own part, and what a walk over as many VMAs cost
 * the kernel calibrate-walk measured (or sim_vma_ns each), per 4 KiB page. */
static double walk_hold(const struct machine *m, uint64_t vmas_before)
{
	double v = (double)(m->e.ws.vmas_visited - vmas_before);
	double vmas_ns = m->mp.walk_curve.n ? walk_curve_cost(&m->mp.walk_curve, v) : v * m->mp.vma_ns;
	return (m->mp.walk_ns + vmas_ns * m->mp.walk_scale) * m->scale;
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
	m->recent_scanned[0] += m->scale;
	if (referenced)
		m->recent_rotated[0] += m->scale;
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
	m->recent_scanned[0] += m->scale;
	if (referenced) {
		m->recent_rotated[0] += m->scale;
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
	if (m->count_age++ % 16)
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
bool inactive_anon_is_low(const struct machine *m)
{
	double gb = floor(m->ram_kib / (1024.0 * 1024));
	double ratio = gb >= 1 ? floor(sqrt(10 * gb)) : 1;
	return m->nr_inactive_anon * ratio < m->nr_active_anon;
}

/* get_scan_ratio (2.6.33): the pressure on each list is its priority
 * (swappiness for anon, 200 - swappiness for file) times the share of its
 * recently scanned pages that were not rotated back for being referenced,
 * the recent counts halved once they pass a quarter of the lists; with few
 * cache pages left, anon only. A cache page scanned is never found
 * referenced here: reads at random over a file set larger than RAM seldom
 * hit a page twice before reclaim comes to it. Returns percent[0] / 100,
 * the anon share. Counts are in kernel pages, as the kernel's are. */
static double get_scan_ratio(struct machine *m)
{
	double anon = (m->nr_active_anon + m->nr_inactive_anon) * m->scale, file = m->cache_kib / 4;
	if ((m->cache_kib + vt_free_kib(m)) <= m->high_kib)
		return 1;
	for (int l = 0; l < 2; l++)
		if (m->recent_scanned[l] > (l ? file : anon) / 4) {
			m->recent_scanned[l] /= 2;
			m->recent_rotated[l] /= 2;
		}
	double ap = (m->mp.swappiness + 1) * (m->recent_scanned[0] + 1) / (m->recent_rotated[0] + 1);
	double fp = (200 - m->mp.swappiness + 1) * (m->recent_scanned[1] + 1) / (m->recent_rotated[1] + 1);
	return ap / (ap + fp + 1);
}

static int evict_cache(struct machine *m)
{
	m->recent_scanned[1] += m->scale;
	m->cache_kib -= m->mp.page_kib;
	m->cache_evicted += (uint64_t)m->scale;
	m->pgscan += (uint64_t)m->scale;
	m->pgsteal += (uint64_t)m->scale;
	vt_account(m, m->mp.scan_ns * m->scale, false, 0);
	return 1;
}

/* SWAP_CLUSTER_MAX kernel pages in engine pages (one at the least) */
static double cluster(const struct machine *m)
{
	double c = floor(SWAP_CLUSTER_MAX / m->scale);
	return c < 1 ? 1 : c;
}

/* nr_scan_try_batch: a list's count waits until it makes SWAP_CLUSTER_MAX;
 * then in engine pages, the fraction short of one carried to the next. */
static double batch(struct machine *m, int l, double scan)
{
	m->nr_saved_scan[l] += scan;
	if (m->nr_saved_scan[l] < SWAP_CLUSTER_MAX)
		return 0;
	double pages = m->nr_saved_scan[l] / m->scale + m->scan_carry[l];
	m->nr_saved_scan[l] = 0;
	m->scan_carry[l] = pages - floor(pages);
	return floor(pages);
}

void shrink_zone_begin(struct machine *m, struct shrink_plan *sp, int priority, double to_reclaim, bool age_first)
{
	bool low = inactive_anon_is_low(m);
	count_lists(m);
	double pa = get_scan_ratio(m);
	double size[SIM_NR_LRU] = { m->nr_inactive_anon * m->scale, m->nr_active_anon * m->scale, m->cache_kib / 4 };
	double share[SIM_NR_LRU] = { pa, pa, 1 - pa };
	*sp = (struct shrink_plan){ .priority = priority, .to_reclaim = to_reclaim, .active = true,
				    .age_left = age_first && low ? cluster(m) : 0 };
	for (int l = 0; l < SIM_NR_LRU; l++)
		sp->nr[l] = batch(m, l, floor(floor(size[l] / pow(2, priority)) * share[l]));
}

/* shrink_list: an active list is aged only when its inactive one is low
 * (the file one never is here); an inactive one is shrunk. */
static int shrink_list(struct machine *m, struct shrink_plan *sp, int l)
{
	switch (l) {
	case SIM_ACTIVE_ANON:
		if (inactive_anon_is_low(m))
			age_one(m);
		return 0;
	case SIM_INACTIVE_ANON: {
		int r = shrink_one(m);
		if (r < 0)
			sp->nr[l] = 0;
		return r < 0 ? 0 : r;
	}
	default:
		if (m->cache_kib < m->mp.page_kib) {
			sp->nr[l] = 0;
			return 0;
		}
		return evict_cache(m);
	}
}

/* The loop of shrink_zone: the lists in turn, SWAP_CLUSTER_MAX each, while
 * the inactive anon or file list has some to scan (active anon alone does
 * not keep it going); past DEF_PRIORITY it stops once it has reclaimed
 * what it was asked. Then the aging "even if we did not try to evict anon
 * pages at all, to rebalance the anon lru active/inactive ratio". */
int shrink_zone_step(struct machine *m, struct shrink_plan *sp)
{
	if (!sp->active)
		return -1;
	if (sp->age_left >= 1) {
		sp->age_left -= 1;
		age_one(m);
		return 0;
	}
	bool more = sp->nr[SIM_INACTIVE_ANON] >= 1 || sp->nr[SIM_INACTIVE_FILE] >= 1;
	if (more && sp->reclaimed >= sp->to_reclaim && sp->priority < DEF_PRIORITY)
		more = false;
	if (more) {
		for (int i = 0; i < SIM_NR_LRU; i++, sp->turn = (sp->turn + 1) % SIM_NR_LRU, sp->chunk_left = 0) {
			int l = sp->turn;
			if (sp->nr[l] < 1)
				continue;
			if (!sp->chunk_left)
				sp->chunk_left = (int)(sp->nr[l] < cluster(m) ? sp->nr[l] : cluster(m));
			sp->nr[l] -= 1;
			if (!--sp->chunk_left)
				sp->turn = (sp->turn + 1) % SIM_NR_LRU;
			int r = shrink_list(m, sp, l);
			sp->reclaimed += r;
			sp->scanned += 1;
			return r;
		}
	}
	if (!sp->tail_set) {
		sp->tail_set = true;
		sp->tail = inactive_anon_is_low(m) ? cluster(m) : 0;
	}
	if (sp->tail >= 1) {
		sp->tail -= 1;
		age_one(m);
		return 0;
	}
	sp->active = false;
	return -1;
}
