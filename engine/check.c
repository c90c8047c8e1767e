/* The invariant checker, run after every operation in tests:
 *   - every present pte is reachable by the rmap walk from its page
 *     (the page's anon_vma lists or covers the vma that maps it);
 *   - no mapped or swap-cached page points at a freed anon_vma;
 *   - a page's mapcount and swapcount equal the ptes that hold it;
 *   - the design's own rules (e->ops->check).
 * Each violation becomes a fault report; the harness never crashes. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

struct tally {
	struct page *page;
	int map, swap;
};

static int by_page(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;
	return x->page < y->page ? -1 : x->page > y->page;
}

static struct vm_area_struct *vma_of(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *v = find_vma(mm, addr);
	return v && v->vm_start <= addr ? v : NULL;
}

size_t engine_check(struct engine *e)
{
	size_t before = e->nfaults, n = 0, cap = 1024;
	struct tally *t = malloc(cap * sizeof(*t));
	if (!t)
		abort();
	struct mm_struct *mm;
	list_for_each_entry(mm, &e->mms, mmlist) {
		for (size_t i = 0; i < mm->cap_ptes; i++) {
			struct pte *p = &mm->ptes[i];
			if (!p->addr)
				continue;
			struct page *page = p->page;
			if (n == cap) {
				cap *= 2;
				t = realloc(t, cap * sizeof(*t));
				if (!t)
					abort();
			}
			t[n++] = (struct tally){ page, !p->swap, p->swap };
			struct vm_area_struct *vma = vma_of(mm, p->addr);
			if (!vma) {
				engine_fault(e, "stray_pte", "mm %d maps address %lu outside any vma", mm->id, p->addr);
				continue;
			}
			struct anon_vma *av = page->mapping;
			if (!av) {
				engine_fault(e, "no_anon_vma", "page %llu mapped by mm %d has no anon_vma",
					     (unsigned long long)page->id, mm->id);
				continue;
			}
			if (av->freed) {
				engine_fault(e, "dangling_anon_vma",
					     "page %llu (%s by mm %d at %lu) points at freed anon_vma %llu",
					     (unsigned long long)page->id, p->swap ? "in swap, referenced" : "mapped", mm->id,
					     p->addr, (unsigned long long)av->id);
				continue;
			}
			if (vma_address(page, vma) != p->addr) {
				engine_fault(e, "bad_index", "page %llu index %lu does not match mm %d address %lu in vma %d",
					     (unsigned long long)page->id, page->index, mm->id, p->addr, vma->id);
				continue;
			}
			if (!e->ops->anon_vma_reaches(av, vma, page->index))
				engine_fault(e, "rmap_unreachable",
					     "page %llu mapped by vma %d (mm %d) is not reachable from its anon_vma %llu",
					     (unsigned long long)page->id, vma->id, mm->id, (unsigned long long)av->id);
		}
	}
	qsort(t, n, sizeof(*t), by_page);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		int map = 0, swap = 0;
		for (; j < n && t[j].page == t[i].page; j++) {
			map += t[j].map;
			swap += t[j].swap;
		}
		if (t[i].page->mapcount != map || t[i].page->swapcount != swap)
			engine_fault(e, "count_imbalance", "page %llu: mapcount %d swapcount %d, but %d ptes and %d swap entries",
				     (unsigned long long)t[i].page->id, t[i].page->mapcount, t[i].page->swapcount, map,
				     swap);
		i = j;
	}
	free(t);
	e->ops->check(e);
	return e->nfaults - before;
}
