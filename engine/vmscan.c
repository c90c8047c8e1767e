/* mm/vmscan.c, reduced: shrink_page_list over a range of one mm. */
#include "engine.h"
#include "internal.h"

#include <stdlib.h>

/* shrink_page_list over the pages mapped in [start, start+len) of mm:
 * page_referenced, then try_to_unmap; returns the pages left mapped (-1:
 * no memory to list them). */
int shrink_mm(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len)
{
	size_t n;
	unsigned long *addrs = pte_range(mm, start, len, &n);
	if (!addrs)
		return -1;
	int failed = 0;
	for (size_t i = 0; i < n; i++) {
		struct pte *pte = pte_lookup(mm, addrs[i]);
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
