#include "mmstate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define PM_PRESENT (1ull << 63)
#define PM_SWAP (1ull << 62)
#define PM_PFN ((1ull << 55) - 1)

static const char *prot_word(int prot)
{
	static const char *const w[8] = { "none", "r", "w", "rw", "x", "rx", "wx", "rwx" };
	return w[prot & 7];
}

/* The prot of page a in a sorted map list, -1 when unmapped; *next the
 * first boundary after a. */
static int prot_at(const struct anon_maps *m, size_t *i, unsigned long a, unsigned long *next)
{
	while (*i < m->n && m->v[*i].end <= a)
		(*i)++;
	if (*i < m->n && m->v[*i].start <= a) {
		*next = m->v[*i].end;
		return m->v[*i].prot;
	}
	*next = *i < m->n ? m->v[*i].start : ~0UL;
	return -1;
}

/* One range of a pass of diff_maps: munmap, mprotect or mmap; whether
 * it unmapped. */
static bool emit_range(struct sync_env *env, const struct mmstate *s, int pass, unsigned long start,
		       unsigned long end, int prot)
{
	static const char *const op[3] = { "munmap", "mprotect", "mmap" };
	if (pass == 0)
		emit_line(env->out, "munmap %lu %lu %lu", s->num, start, end - start);
	else
		emit_line(env->out, "%s %lu %lu %lu %s", op[pass], s->num, start, end - start, prot_word(prot));
	return pass == 0;
}

/* The mappings' difference as elementary ranges, in three passes so that
 * munmaps come first and mmaps last (an mmap may reuse what was freed).
 * Whether anything was unmapped. */
static bool diff_maps(struct sync_env *env, struct mmstate *s, const struct anon_maps *now)
{
	bool unmapped = false;
	for (int pass = 0; pass < 3; pass++) {
		size_t i = 0, j = 0;
		unsigned long a = 0;
		unsigned long run_start = 0, run_end = 0;
		int run_prot = -2;
		for (;;) {
			unsigned long n1, n2;
			int p1 = prot_at(&s->maps, &i, a, &n1), p2 = prot_at(now, &j, a, &n2);
			unsigned long b = n1 < n2 ? n1 : n2;
			if (p1 == -1 && p2 == -1 && b == ~0UL)
				break;
			bool hit = pass == 0 ? (p1 >= 0 && p2 < 0) : pass == 1 ? (p1 >= 0 && p2 >= 0 && p1 != p2)
									     : (p1 < 0 && p2 >= 0);
			int want = hit ? (pass == 0 ? -1 : p2) : -2;
			if (run_prot != -2 && (want != run_prot || a != run_end)) {
				unmapped |= emit_range(env, s, pass, run_start, run_end, run_prot);
				run_prot = -2;
			}
			if (want != -2) {
				if (run_prot == -2) {
					run_start = a;
					run_prot = want;
				}
				run_end = b;
			}
			a = b;
		}
		if (run_prot != -2)
			unmapped |= emit_range(env, s, pass, run_start, run_end, run_prot);
	}
	return unmapped;
}

static bool mapped(const struct anon_maps *m, uint64_t page)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->v[mid].end <= page)
			lo = mid + 1;
		else if (m->v[mid].start > page)
			hi = mid;
		else
			return true;
	}
	return false;
}

/* PAGEMAP_SCAN (Linux 6.7): the runs of pages that are present or in
 * swap, found by the kernel's page-table walk, so that a sparse mapping
 * costs what it holds, not its size. Our own names: the ABI is fixed,
 * Debian 12's headers predate it. */
struct pm_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages, category_inverted, category_mask,
		category_anyof_mask, return_mask;
};
#define PM_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PM_IS_PRESENT (1ull << 3)
#define PM_IS_SWAPPED (1ull << 4)
/* a range this short is read whole: one pread */
#define SCAN_ABOVE_PAGES 4096

struct ranges {
	unsigned long (*v)[2];
	size_t n, cap;
};

static int ranges_push(struct ranges *r, unsigned long a, unsigned long b)
{
	if (r->n && r->v[r->n - 1][1] == a) { /* adjacent: one run */
		r->v[r->n - 1][1] = b;
		return 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		unsigned long(*v)[2] = realloc(r->v, cap * sizeof(*v));
		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n][0] = a;
	r->v[r->n++][1] = b;
	return 0;
}

static bool ranges_has(const struct ranges *r, unsigned long page)
{
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->v[mid][1] <= page)
			lo = mid + 1;
		else if (r->v[mid][0] > page)
			hi = mid;
		else
			return true;
	}
	return false;
}

/* The present or swapped runs of [a, b) (pages) into found. 0, or -1
 * (errno: ENOTTY or EINVAL where the kernel has no PAGEMAP_SCAN). */
static int pagemap_scan(int fd, unsigned shift, unsigned long a, unsigned long b, struct ranges *found)
{
	struct pm_region vec[256];
	struct pm_scan_arg arg = { .size = sizeof(arg), .start = (uint64_t)a << shift, .end = (uint64_t)b << shift,
				   .vec = (uint64_t)(uintptr_t)vec, .vec_len = 256,
				   .category_anyof_mask = PM_IS_PRESENT | PM_IS_SWAPPED,
				   .return_mask = PM_IS_PRESENT | PM_IS_SWAPPED };
	for (;;) {
		long n = ioctl(fd, PM_SCAN, &arg);
		if (n < 0)
			return -1;
		for (long i = 0; i < n; i++)
			if (ranges_push(found, (unsigned long)(vec[i].start >> shift), (unsigned long)(vec[i].end >> shift)) < 0)
				return -1;
		if (arg.walk_end >= arg.end || n < 256)
			return 0;
		arg.start = arg.walk_end;
	}
}

/* The frames of [a, b) read from pagemap, against what s holds: new
 * frames written, known pages gone zapped. *seen counts the known pages
 * met. */
static int read_frames(struct sync_env *env, struct mmstate *s, int fd, unsigned long a, unsigned long end,
		       size_t *seen)
{
	static uint64_t ent[4096];
	while (a < end) {
		unsigned long n = end - a < 4096 ? end - a : 4096;
		ssize_t r = pread(fd, ent, n * 8, (off_t)(a * 8));
		if (r <= 0)
			return 0;
		n = (unsigned long)r / 8;
		env->pages_read += n;
		for (unsigned long x = 0; x < n; x++) {
			uint64_t page = a + x, e = ent[x];
			uint64_t *known = ptab_find(&s->pages, page);
			*seen += known != NULL;
			if (e & PM_PRESENT) {
				uint64_t pfn = e & PM_PFN;
				if (known && *known == pfn)
					continue;
				bool zero = pfn == env->zero_pfn;
				/* a frame the trace did not know: a first touch, a COW copy, or
				 * a page faulted in again after MADV_DONTNEED */
				if (!(zero && known))
					emit_page(env->out, zero ? "read" : "write", s->num, page);
				ptab_set(&s->pages, page, pfn);
			} else if (e & PM_SWAP) {
				continue; /* still the process's page, out in swap */
			} else if (known) {
				emit_page(env->out, "zap", s->num, page);
				ptab_del(&s->pages, page);
			}
		}
		a += n;
	}
	return 0;
}

/* The frames of the pages of maps inside [lo, hi), against what s holds.
 * A short range is read whole; a long one only where PAGEMAP_SCAN finds
 * pages, and a known page in its gaps is zapped. */
static int scan_pages(struct sync_env *env, struct mmstate *s, pid_t tid, const struct anon_maps *maps,
		      unsigned long lo, unsigned long hi)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)tid);
	int fd = -1, rc = 0;
	struct ranges scanned = { 0 }, found = { 0 };
	size_t seen = 0;
	for (size_t k = 0; k < maps->n && rc == 0; k++) {
		const struct anon_map *m = &maps->v[k];
		unsigned long start = m->start > lo ? m->start : lo, end = m->end < hi ? m->end : hi;
		if (!m->prot || start >= end)
			continue; /* PROT_NONE: nothing can be touched */
		if (fd < 0 && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			rc = -1;
			break;
		}
		size_t had = found.n;
		bool scan = end - start > SCAN_ABOVE_PAGES && !env->no_scan;
		if (scan && pagemap_scan(fd, env->page_shift, start, end, &found) < 0) {
			if (errno != ENOTTY && errno != EINVAL) { /* the task is going: nothing more is read */
				rc = -1;
				break;
			}
			env->no_scan = true; /* a kernel before 6.7: read whole from now on */
			scan = false;
			found.n = had;
		}
		if (!scan) {
			rc = read_frames(env, s, fd, start, end, &seen);
			continue;
		}
		env->scans++;
		if (ranges_push(&scanned, start, end) < 0) {
			rc = -1;
			break;
		}
		for (size_t i = had; i < found.n && rc == 0; i++)
			rc = read_frames(env, s, fd, found.v[i][0], found.v[i][1], &seen);
	}
	/* the known pages in a scanned range's gaps are gone (MADV_DONTNEED):
	 * looked for only when some known page was not met */
	for (size_t i = 0; rc == 0 && scanned.n && seen < s->pages.n && i < s->pages.cap; i++) {
		uint64_t page = s->pages.key[i];
		if (page && ranges_has(&scanned, page) && !ranges_has(&found, page)) {
			emit_page(env->out, "zap", s->num, page);
			ptab_del(&s->pages, page);
			i--; /* the deletion may have shifted another entry here */
		}
	}
	free(scanned.v);
	free(found.v);
	if (fd >= 0)
		close(fd);
	return rc;
}

int mm_sync(struct sync_env *env, struct mmstate *s, pid_t tid, bool pages)
{
	struct anon_maps now = { 0 };
	if (maps_read(tid, env->page_shift, env->max_pages, &now) < 0) {
		maps_free(&now);
		return -1;
	}
	env->syncs++;
	/* a mapping too large to follow is counted once, not at every sync */
	for (size_t i = 0; i < now.skipped_huge; i++) {
		bool before = false;
		for (size_t j = 0; i < now.nhuge && j < s->maps.nhuge; j++)
			before |= s->maps.huge_start[j] == now.huge_start[i];
		env->skipped_huge += !before;
	}
	/* pages the trace held that are no longer mapped went with munmap:
	 * the whole table is looked through only when something went */
	bool unmapped = diff_maps(env, s, &now);
	for (size_t i = 0; unmapped && i < s->pages.cap; i++) {
		uint64_t page = s->pages.key[i];
		if (page && !mapped(&now, page)) {
			ptab_del(&s->pages, page);
			i--; /* the deletion may have shifted another entry here */
		}
	}
	/* without pages: the mappings only, the pages wait for the next sync */
	int rc = pages ? scan_pages(env, s, tid, &now, 0, ~0UL) : 0;
	maps_free(&s->maps);
	s->maps = now;
	return rc;
}

int mm_sync_range(struct sync_env *env, struct mmstate *s, pid_t tid, unsigned long lo, unsigned long hi)
{
	env->syncs++;
	return scan_pages(env, s, tid, &s->maps, lo, hi);
}

int mm_copy(struct mmstate *dst, const struct mmstate *src, unsigned long num)
{
	memset(dst, 0, sizeof(*dst));
	dst->num = num;
	if (src->maps.n) {
		dst->maps.v = malloc(src->maps.n * sizeof(*dst->maps.v));
		if (!dst->maps.v)
			return -1;
		memcpy(dst->maps.v, src->maps.v, src->maps.n * sizeof(*dst->maps.v));
		dst->maps.n = dst->maps.cap = src->maps.n;
	}
	memcpy(dst->maps.huge_start, src->maps.huge_start, sizeof(dst->maps.huge_start));
	dst->maps.nhuge = src->maps.nhuge;
	dst->maps.skipped_huge = src->maps.skipped_huge;
	return ptab_copy(&dst->pages, &src->pages);
}

void mm_move(struct mmstate *s, unsigned long old, unsigned long n, unsigned long new_start)
{
	struct ptab moved = { 0 };
	for (size_t i = 0; i < s->pages.cap; i++) {
		uint64_t page = s->pages.key[i];
		if (page >= old && page < old + n) {
			ptab_set(&moved, page - old + new_start, s->pages.pfn[i]);
			ptab_del(&s->pages, page);
			i--;
		}
	}
	for (size_t i = 0; i < moved.cap; i++)
		if (moved.key[i])
			ptab_set(&s->pages, moved.key[i], moved.pfn[i]);
	ptab_free(&moved);
	/* the mapping moves too: the next sync sees no change there */
	for (size_t k = 0; k < s->maps.n; k++) {
		struct anon_map *m = &s->maps.v[k];
		if (m->start == old && m->end - m->start == n) {
			m->start = new_start;
			m->end = new_start + n;
		}
	}
	/* keep the list sorted */
	for (size_t k = 1; k < s->maps.n; k++)
		for (size_t j = k; j > 0 && s->maps.v[j - 1].start > s->maps.v[j].start; j--) {
			struct anon_map t = s->maps.v[j];
			s->maps.v[j] = s->maps.v[j - 1];
			s->maps.v[j - 1] = t;
		}
}

void mm_clear(struct mmstate *s)
{
	maps_free(&s->maps);
	ptab_free(&s->pages);
}
