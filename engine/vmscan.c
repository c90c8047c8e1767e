/* mm/vmscan.c, reduced: shrink_page_list over a range of one mm. */
#include "engine.h"
#include "internal.h"

#include <stdlib.h>

static int cmp_addr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
	return (x > y) - (x < y);
}

/* shrink_page_list over the pages mapped in [start, start+len) of mm:
 * page_referenced, then try_to_unmap; returns the pages left mapped. A
 * range larger than the mm's table (a trace may name 2^36 pages) takes
 * its addresses from the table, in the same ascending order (address 0
 * marks an empty slot). -1: no memory to list them. */
int shrink_mm(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long *addrs = NULL;
	size_t n = 0;
	if (len > mm->cap_ptes) {
		if (!mm->nr_ptes)
			return 0;
		addrs = malloc(mm->nr_ptes * sizeof(*addrs));
		if (!addrs)
			return -1;
		for (size_t i = 0; i < mm->cap_ptes; i++)
			if (mm->ptes[i].addr && mm->ptes[i].addr >= start && mm->ptes[i].addr - start < len)
				addrs[n++] = mm->ptes[i].addr;
		qsort(addrs, n, sizeof(*addrs), cmp_addr);
	} else {
		n = len;
	}
	int failed = 0;
	for (size_t i = 0; i < n; i++) {
		struct pte *pte = pte_lookup(mm, addrs ? addrs[i] : start + i);
		if (!pte || pte->swap)
			continue;
		struct page *page = pte->page;
		page_referenced(e, page);
		if (!try_to_unmap(e, page))
			failed++;
	}
	free(addrs);
	return failed;
}
