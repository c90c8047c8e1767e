#ifndef ENGINE_WALKCOST_H
#define ENGINE_WALKCOST_H

#include "engine.h"

/* Commit 5beb49305251's experiment: a parent with a P-page anonymous vma,
 * every page faulted; N children forked; every child COW-writes every
 * page; then one page_referenced walk of every anonymous page. */
struct walkcost {
	unsigned long children, pages;
	uint64_t anon_pages, vmas, avcs, anon_vmas;
	size_t bytes_pages, bytes_ptes, bytes_vmas, bytes_avcs, bytes_anon_vmas;
	struct walk_stats ws;      /* page_referenced over every page */
	struct walk_stats full;    /* rmap_walk_full over every page */
	double build_s, walk_s, wall_s;
	long peak_rss_bytes;
	struct lock_totals locks;
};

int walkcost_run(const struct rmap_ops *ops, unsigned long children, unsigned long pages, struct walkcost *out);

#endif
