#ifndef ENGINE_WALKCOST_H
#define ENGINE_WALKCOST_H

#include "engine.h"

/* Commit 5beb49305251's experiment: a parent with a P-page anonymous vma,
 * every page faulted; N children forked; every child COW-writes every
 * page; then every anonymous page is walked twice.
 *
 * The commit's "O(N) to 2" counts the vmas a walk has to consider: every
 * vma of the page's anon_vma(s) that covers its index. That is rmap_walk
 * as remove_migration_ptes runs it, never stopping early (walk). The
 * reclaim walk, page_referenced, stops once it has found the page's last
 * mapping, so on legacy it visits (N+2)/2 on average, not N+1, and on the
 * chain designs 1, not 2 (referenced). Both are counted. */
struct walkcost {
	unsigned long children, pages;
	uint64_t anon_pages, vmas, avcs, anon_vmas;
	size_t bytes_pages, bytes_ptes, bytes_vmas, bytes_avcs, bytes_anon_vmas;
	struct walk_stats walk;       /* rmap_walk_full of every page */
	struct walk_stats referenced; /* page_referenced of every page */
	double build_s, walk_s, referenced_s, wall_s;
	long peak_rss_bytes;
	struct lock_totals locks;
};

int walkcost_run(const struct rmap_ops *ops, unsigned long children, unsigned long pages, struct walkcost *out);

#endif
