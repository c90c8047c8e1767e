/* One traced address space: what the trace has said it maps (its private
 * anonymous mappings and the frame of each page), and the sync that
 * compares that with /proc and writes the difference as trace
 * operations. */
#ifndef RECORD_MMSTATE_H
#define RECORD_MMSTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "emit.h"
#include "maps.h"
#include "ptab.h"

struct mmstate {
	unsigned long num;    /* the trace's process number */
	struct anon_maps maps;
	struct ptab pages;
};

struct sync_env {
	struct emit *out;
	unsigned page_shift;
	unsigned long max_pages;  /* a larger mapping is skipped (counted) */
	uint64_t zero_pfn;        /* the shared zero page: a read, not a write */
	uint64_t skipped_huge, syncs, pages_read, scans;
	bool no_scan;             /* the kernel has no PAGEMAP_SCAN: ranges are read whole */
};

/* Compares tid's mappings and frames with what s holds: munmap, mprotect
 * and mmap for the mappings, then (pages) zap, write and read for the
 * pages; s then holds /proc's. 0, or -1 when the task is gone. */
int mm_sync(struct sync_env *env, struct mmstate *s, pid_t tid, bool pages);
/* The pages of [lo, hi) (page numbers) alone, in the mappings s holds:
 * before a call that changes only that range. */
int mm_sync_range(struct sync_env *env, struct mmstate *s, pid_t tid, unsigned long lo, unsigned long hi);
/* The child's state at fork: the parent's, the frames shared. */
int mm_copy(struct mmstate *dst, const struct mmstate *src, unsigned long num);
/* mremap moved [old, old + n) to new: the trace's pages move with it. */
void mm_move(struct mmstate *s, unsigned long old, unsigned long n, unsigned long new_start);
void mm_clear(struct mmstate *s);

#endif
