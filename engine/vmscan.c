/* mm/vmscan.c, reduced: shrink_page_list over a range of one mm. */
#include "engine.h"
#include "internal.h"

/* shrink_page_list over the pages mapped in [start, start+len) of mm:
 * page_referenced, then try_to_unmap; returns the pages left mapped. */
int shrink_mm(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len)
{
	int failed = 0;
	for (unsigned long a = start; a < start + len; a++) {
		struct pte *pte = pte_lookup(mm, a);
		if (!pte || pte->swap)
			continue;
		struct page *page = pte->page;
		page_referenced(e, page);
		if (!try_to_unmap(e, page))
			failed++;
	}
	return failed;
}
