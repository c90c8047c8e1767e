#include "walkcost.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The kernel's high-water mark, reset at the start of each run so that a
 * sweep reports each point's own peak; getrusage's (never reset) where
 * /proc cannot say. */
static void peak_rss_reset(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

static long peak_rss(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (kb < 0) {
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		kb = ru.ru_maxrss;
	}
	return kb * 1024L;
}

int walkcost_run(const struct rmap_ops *ops, unsigned long children, unsigned long pages, struct walkcost *out)
{
	struct engine e;
	const unsigned long base = 1024;
	memset(out, 0, sizeof(*out));
	out->children = children;
	out->pages = pages;
	peak_rss_reset();
	engine_init(&e, ops);
	double t0 = now();
	struct mm_struct *parent = mm_alloc(&e);
	if (!parent || do_mmap(&e, parent, base, pages, VM_READ | VM_WRITE))
		return -1;
	for (unsigned long i = 0; i < pages; i++)
		if (handle_mm_fault(&e, parent, base + i, true))
			return -1;
	for (unsigned long c = 0; c < children; c++) {
		struct mm_struct *child = dup_mm(&e, parent);
		if (!child)
			return -1;
		for (unsigned long i = 0; i < pages; i++)
			if (handle_mm_fault(&e, child, base + i, true))
				return -1;
	}
	out->build_s = now() - t0;

	struct mm_struct *mm;
	list_for_each_entry(mm, &e.mms, mmlist) {
		out->vmas += (uint64_t)mm->nr_vmas;
		out->bytes_ptes += mm->cap_ptes * sizeof(struct pte);
	}
	out->anon_pages = e.live[C_PAGE];
	out->avcs = e.live[C_AVC];
	out->anon_vmas = e.live[C_ANON_VMA];
	out->bytes_pages = e.bytes[C_PAGE];
	out->bytes_vmas = e.bytes[C_VMA];
	out->bytes_avcs = e.bytes[C_AVC];
	out->bytes_anon_vmas = e.bytes[C_ANON_VMA];

	memset(&e.ws, 0, sizeof(e.ws));
	double t1 = now();
	struct page *page;
	list_for_each_entry(page, &e.pages, lru)
		rmap_walk_full(&e, page);
	out->walk_s = now() - t1;
	out->walk = e.ws;
	memset(&e.ws, 0, sizeof(e.ws));
	t1 = now();
	list_for_each_entry(page, &e.pages, lru)
		page_referenced(&e, page);
	out->referenced_s = now() - t1;
	out->referenced = e.ws;
	out->wall_s = now() - t0;
	out->peak_rss_bytes = peak_rss();
	engine_destroy(&e);
	out->locks = e.locks;
	return 0;
}
