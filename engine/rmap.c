/* mm/rmap.c, the part every design shares: rmap_walk and its callers
 * (page_referenced, try_to_unmap, the full walk). The design's own
 * rmap_walk_anon (e->ops) decides which vmas are offered; this file
 * counts them. */
#include "engine.h"
#include "internal.h"

static bool rmap_one_counted(struct engine *e, struct page *page, struct vm_area_struct *vma, unsigned long address,
			     void *arg)
{
	struct rmap_walk_control *inner = arg;
	e->ws.vmas_visited++;
	return inner->rmap_one(e, page, vma, address, inner->arg);
}

/* rmap_walk: the page's anon_vma must still exist; a freed one is the
 * oops of the 2.6.34-rc hunt, reported instead of followed. */
static void rmap_walk(struct engine *e, struct page *page, struct rmap_walk_control *rwc)
{
	ptl_lock(e);
	struct anon_vma *anon_vma = page->mapping;
	bool mapped = page->mapcount > 0;
	bool freed = anon_vma && __atomic_load_n(&anon_vma->freed, __ATOMIC_ACQUIRE);
	ptl_unlock(e);
	if (!anon_vma || !mapped)
		return;
	if (freed) {
		engine_fault(e, "dangling_anon_vma", "rmap walk of page %llu: its anon_vma %llu was freed",
			     (unsigned long long)page->id, (unsigned long long)anon_vma->id);
		return;
	}
	struct rmap_walk_control counted = { rmap_one_counted, rwc, anon_vma };
	e->ws.walks++;
	e->ops->rmap_walk_anon(e, page, &counted);
}

/* With the anon_vma locked: take the page table lock and check that the
 * page still belongs to this anon_vma and is still mapped (a concurrent
 * exit may have unmapped it since page_lock_anon_vma's read). */
bool rmap_walk_begin(struct engine *e, struct page *page, struct anon_vma *anon_vma)
{
	ptl_lock(e);
	if (page->mapping == anon_vma && page->mapcount > 0)
		return true;
	ptl_unlock(e);
	return false;
}

void rmap_walk_end(struct engine *e)
{
	ptl_unlock(e);
}

struct referenced_arg {
	int mapcount, referenced;
};

static bool page_referenced_one(struct engine *e, struct page *page, struct vm_area_struct *vma,
				unsigned long address, void *arg)
{
	(void)e;
	struct referenced_arg *ra = arg;
	struct pte *pte = pte_lookup(vma->vm_mm, address);
	if (pte && !pte->swap && pte->page == page) {
		if (pte->young) /* ptep_clear_flush_young */
			ra->referenced++;
		pte->young = false;
		ra->mapcount--;
	}
	return ra->mapcount > 0; /* every mapping found: stop, as the kernel does */
}

int page_referenced(struct engine *e, struct page *page)
{
	ptl_lock(e);
	struct referenced_arg ra = { page->mapcount, 0 };
	ptl_unlock(e);
	if (!ra.mapcount)
		return 0;
	struct rmap_walk_control rwc = { page_referenced_one, &ra, NULL };
	rmap_walk(e, page, &rwc);
	return ra.referenced;
}

static bool try_to_unmap_one(struct engine *e, struct page *page, struct vm_area_struct *vma, unsigned long address,
			     void *arg)
{
	(void)arg;
	struct pte *pte = pte_lookup(vma->vm_mm, address);
	if (pte && !pte->swap && pte->page == page) {
		pte->swap = true; /* the pte becomes a swap entry; the page stays in swap cache */
		if (--page->mapcount == 0)
			e->nr_mapped_pages--;
		page->swapcount++;
	}
	return page->mapcount > 0;
}

bool try_to_unmap(struct engine *e, struct page *page)
{
	struct rmap_walk_control rwc = { try_to_unmap_one, NULL, NULL };
	rmap_walk(e, page, &rwc);
	ptl_lock(e);
	bool done = page->mapcount == 0;
	ptl_unlock(e);
	return done;
}

static bool remove_migration_pte(struct engine *e, struct page *page, struct vm_area_struct *vma,
				 unsigned long address, void *arg)
{
	(void)e;
	(void)page;
	(void)vma;
	(void)address;
	(void)arg;
	return true; /* every vma that may map the page is visited */
}

/* The walk that never stops early: rmap_walk as remove_migration_ptes and
 * page idle tracking use it. Its cost is the scan commit 5beb49305251
 * describes ("needs to walk them all"). */
void rmap_walk_full(struct engine *e, struct page *page)
{
	struct rmap_walk_control rwc = { remove_migration_pte, NULL, NULL };
	rmap_walk(e, page, &rwc);
}
