/* shrink_zone as 2.6.33 did it, reduced to what the rmap sees, for one
 * zone at a time. A zone's anon pages are on an active and an inactive
 * list (PG_active), each swept by a clock of its own over the engine's
 * pages of that zone. Aging (shrink_active_list) moves active pages to
 * the inactive list, walking each with
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
#include <stdio.h>


/* The walk's cost: its own part, and what a walk over as many VMAs cost
 * the kernel calibrate-walk measured (or sim_vma_ns each), per 4 KiB page. */
/* The reclaimer's stack down to what it does now (sim_profile). */
static void reclaim_op(struct machine *m, const char *what, const char *hold)
{
	char op[160];
	snprintf(op, sizeof(op), "%s;shrink_zone;%s",
		 m->cur == &m->kswapd ? "kswapd;balance_pgdat" : "__alloc_pages_nodemask;try_to_free_pages", what);
	sim_prof_op(m, op, hold);
}

static double walk_hold(const struct machine *m, uint64_t vmas_before)
{
	double v = (double)(m->e.ws.vmas_visited - vmas_before);
	double vmas_ns = m->mp.walk_curve.n ? walk_curve_cost(&m->mp.walk_curve, v) : v * m->mp.vma_ns;
	return (m->mp.walk_ns + vmas_ns * m->mp.walk_scale) * m->scale;
}

/* A page's zone, drawn by the zones' shares from its id (a Fibonacci
 * hash, so the draw is the same on every run). 2.6.33's allocator takes
 * Normal first and falls back to DMA32, but on a machine that reclaims all
 * the time each zone is allocated from as fast as reclaim frees it, and
 * balance_pgdat frees each "with equal pressure", its lists >> priority:
 * in proportion to its size. */
static int page_zone(const struct machine *m, const struct page *page)
{
	double u = (double)((page->id * UINT64_C(0x9E3779B97F4A7C15)) >> 11) / 9007199254740992.0;
	return m->nr_zones > 1 && u >= m->zones[SIM_ZONE_DMA32].share ? SIM_ZONE_NORMAL : SIM_ZONE_DMA32;
}

void zones_init(struct machine *m)
{
	double ram_mib = m->ram_kib / 1024, dma32 = m->mp.dma32_mib;
	double mib[SIM_NR_ZONES] = { dma32 > 0 && dma32 < ram_mib ? dma32 : ram_mib, 0 };
	mib[SIM_ZONE_NORMAL] = ram_mib - mib[SIM_ZONE_DMA32];
	m->nr_zones = mib[SIM_ZONE_NORMAL] > 0 ? 2 : 1;
	for (int z = 0; z < m->nr_zones; z++) {
		double gb = floor(mib[z] / 1024);
		m->zones[z] = (struct sim_zone){ .share = mib[z] / ram_mib, .inactive_ratio = gb >= 1 ? floor(sqrt(10 * gb)) : 1 };
	}
}

/* The next mapped anon page of the zone's list wanted (active or inactive)
 * after the hand, the hand left on it; NULL when none comes within a
 * window (the lists interleave on one clock: a bounded look, not a second
 * list). */
static struct page *next_on_list(struct machine *m, int z, struct page **hand, bool active)
{
	for (int i = 0; i < 256; i++) {
		*hand = page_pin_next(&m->e, *hand);
		if (!*hand)
			return NULL;
		if ((*hand)->mapcount > 0 && (*hand)->active == active && page_zone(m, *hand) == z)
			return *hand;
	}
	return NULL;
}

/* shrink_active_list for anon, one page: deactivated whatever its
 * accessed bits say, but walked first to learn and clear them (2.6.33
 * calls page_referenced on every page it moves). */
static void age_one(struct machine *m, int z)
{
	struct sim_zone *zn = &m->zones[z];
	struct page *page = next_on_list(m, z, &zn->age_hand, true);
	if (!page)
		return;
	uint64_t v = m->e.ws.vmas_visited;
	int referenced = page_referenced(&m->e, page);
	reclaim_op(m, "shrink_active_list;page_referenced", "page_referenced_one");
	vt_account(m, m->mp.scan_ns * m->scale, false, walk_hold(m, v));
	zn->recent_scanned[0] += m->scale;
	if (referenced)
		zn->recent_rotated[0] += m->scale;
	page->active = false;
	zn->nr_inactive_anon++;
	zn->nr_active_anon--;
	m->pgscan += (uint64_t)m->scale;
}

/* shrink_inactive_list for anon, one page: referenced, it goes back to the
 * active list; else try_to_unmap and out to swap. 1 when it was freed,
 * 0 kept, -1 no inactive anon page to be had. */
static int shrink_one(struct machine *m, int z)
{
	struct engine *e = &m->e;
	struct sim_zone *zn = &m->zones[z];
	struct page *page = next_on_list(m, z, &zn->hand, false);
	if (!page)
		return -1;
	m->pgscan += (uint64_t)m->scale;
	uint64_t v = e->ws.vmas_visited;
	int referenced = page_referenced(e, page);
	reclaim_op(m, "shrink_page_list;page_referenced", "page_referenced_one");
	vt_account(m, m->mp.scan_ns * m->scale, false, walk_hold(m, v));
	zn->recent_scanned[0] += m->scale;
	if (referenced) {
		zn->recent_rotated[0] += m->scale;
		page->active = true; /* activated */
		zn->nr_active_anon++;
		zn->nr_inactive_anon--;
		return 0;
	}
	v = e->ws.vmas_visited;
	bool unmapped = try_to_unmap(e, page);
	reclaim_op(m, "shrink_page_list;try_to_unmap", "try_to_unmap_one");
	vt_account(m, m->mp.pageout_ns * m->scale, false, walk_hold(m, v));
	if (!unmapped)
		return 0;
	zn->nr_inactive_anon--;
	m->pgsteal += (uint64_t)m->scale;
	m->pswpout += (uint64_t)m->scale;
	vt_swap_write(m, m->cur->ready);
	double backlog = m->dev_free_at - m->cur->ready, congested = m->mp.congestion_ms * 1e6;
	if (backlog > congested) { /* the queue is full: wait for it to drain below the mark */
		reclaim_op(m, "shrink_page_list;pageout", NULL);
		vt_io_wait(m, m->dev_free_at - congested);
	}
	return 1;
}

/* The lists' sizes, counted again now and then: pages come and go in the
 * engine (faults, exits) without telling reclaim. */
static void count_lists(struct machine *m)
{
	if (m->count_age++ % 16)
		return;
	uint64_t act[SIM_NR_ZONES] = { 0 }, inact[SIM_NR_ZONES] = { 0 };
	struct page *pg;
	list_for_each_entry(pg, &m->e.pages, lru)
		if (pg->mapcount > 0) {
			int z = page_zone(m, pg);
			act[z] += pg->active;
			inact[z] += !pg->active;
		}
	for (int z = 0; z < m->nr_zones; z++) {
		m->zones[z].nr_active_anon = (double)act[z];
		m->zones[z].nr_inactive_anon = (double)inact[z];
	}
}

/* inactive_anon_is_low: the zone's inactive x its ratio < its active (the
 * ratio 5 for a 3 GiB DMA32, 11 for a 13 GiB Normal). */
bool inactive_anon_is_low(const struct machine *m, int z)
{
	return m->zones[z].nr_inactive_anon * m->zones[z].inactive_ratio < m->zones[z].nr_active_anon;
}

/* get_scan_ratio (2.6.33): the pressure on each list is its priority
 * (swappiness for anon, 200 - swappiness for file) times the share of its
 * recently scanned pages that were not rotated back for being referenced,
 * the recent counts halved once they pass a quarter of the lists; with few
 * cache pages left, anon only. A cache page scanned is never found
 * referenced here: reads at random over a file set larger than RAM seldom
 * hit a page twice before reclaim comes to it. Returns percent[0] / 100,
 * the anon share. Counts are in kernel pages, as the kernel's are. */
static double get_scan_ratio(struct machine *m, int z)
{
	struct sim_zone *zn = &m->zones[z];
	double anon = (zn->nr_active_anon + zn->nr_inactive_anon) * m->scale, file = m->cache_kib * zn->share / 4;
	if ((m->cache_kib + vt_free_kib(m)) <= m->high_kib) /* all three in the zone's share */
		return 1;
	for (int l = 0; l < 2; l++)
		if (zn->recent_scanned[l] > (l ? file : anon) / 4) {
			zn->recent_scanned[l] /= 2;
			zn->recent_rotated[l] /= 2;
		}
	double ap = (m->mp.swappiness + 1) * (zn->recent_scanned[0] + 1) / (zn->recent_rotated[0] + 1);
	double fp = (200 - m->mp.swappiness + 1) * (zn->recent_scanned[1] + 1) / (zn->recent_rotated[1] + 1);
	return ap / (ap + fp + 1);
}

static int evict_cache(struct machine *m, int z)
{
	m->zones[z].recent_scanned[1] += m->scale;
	m->cache_kib -= m->mp.page_kib;
	m->cache_evicted += (uint64_t)m->scale;
	m->pgscan += (uint64_t)m->scale;
	m->pgsteal += (uint64_t)m->scale;
	reclaim_op(m, "shrink_inactive_list", NULL);
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
static double batch(struct machine *m, struct sim_zone *zn, int l, double scan)
{
	zn->nr_saved_scan[l] += scan;
	if (zn->nr_saved_scan[l] < SWAP_CLUSTER_MAX)
		return 0;
	double pages = zn->nr_saved_scan[l] / m->scale + zn->scan_carry[l];
	zn->nr_saved_scan[l] = 0;
	zn->scan_carry[l] = pages - floor(pages);
	return floor(pages);
}

void shrink_zone_begin(struct machine *m, struct shrink_plan *sp, int zone, int priority, double to_reclaim,
		       int age_zone)
{
	bool low = age_zone >= 0 && inactive_anon_is_low(m, age_zone);
	count_lists(m);
	struct sim_zone *zn = &m->zones[zone];
	double pa = get_scan_ratio(m, zone);
	double size[SIM_NR_LRU] = { zn->nr_inactive_anon * m->scale, zn->nr_active_anon * m->scale,
				    m->cache_kib * zn->share / 4 };
	double share[SIM_NR_LRU] = { pa, pa, 1 - pa };
	*sp = (struct shrink_plan){ .zone = zone, .age_zone = age_zone, .priority = priority, .to_reclaim = to_reclaim,
				    .active = true, .age_left = low ? cluster(m) : 0 };
	for (int l = 0; l < SIM_NR_LRU; l++)
		sp->nr[l] = batch(m, zn, l, floor(floor(size[l] / pow(2, priority)) * share[l]));
}

/* shrink_list: an active list is aged only when its inactive one is low
 * (the file one never is here); an inactive one is shrunk. */
static int shrink_list(struct machine *m, struct shrink_plan *sp, int l)
{
	switch (l) {
	case SIM_ACTIVE_ANON:
		if (inactive_anon_is_low(m, sp->zone))
			age_one(m, sp->zone);
		return 0;
	case SIM_INACTIVE_ANON: {
		int r = shrink_one(m, sp->zone);
		if (r < 0)
			sp->nr[l] = 0;
		return r < 0 ? 0 : r;
	}
	default:
		if (m->cache_kib < m->mp.page_kib) {
			sp->nr[l] = 0;
			return 0;
		}
		return evict_cache(m, sp->zone);
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
		age_one(m, sp->age_zone);
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
		sp->tail = inactive_anon_is_low(m, sp->zone) ? cluster(m) : 0;
	}
	if (sp->tail >= 1) {
		sp->tail -= 1;
		age_one(m, sp->zone);
		return 0;
	}
	sp->active = false;
	return -1;
}
