/* mm/memory.c: anonymous pages, the faults that map them (first touch,
 * COW, swap-in), zapping ptes and copying them at fork. */
#include "engine.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>

static struct page *page_alloc(struct engine *e)
{
	struct page *p = engine_alloc(e, C_PAGE);
	if (!p)
		return NULL;
	p->id = __atomic_add_fetch(&e->next_page, 1, __ATOMIC_RELAXED);
	p->active = true; /* lru_cache_add_active_or_unevictable */
	pthread_mutex_lock(&e->lru_lock);
	list_add_tail(&p->lru, &e->pages);
	pthread_mutex_unlock(&e->lru_lock);
	return p;
}

/* Called with the ptl held. A page a walker has pinned is freed by the
 * walker when it lets go (page_unpin). */
void free_page_if_unused(struct engine *e, struct page *page)
{
	if (page->mapcount || page->swapcount)
		return;
	pthread_mutex_lock(&e->lru_lock);
	if (page->pin) {
		page->dead = true;
		pthread_mutex_unlock(&e->lru_lock);
		return;
	}
	list_del(&page->lru);
	pthread_mutex_unlock(&e->lru_lock);
	engine_free(e, C_PAGE, page);
}

/* The walker's side of the pin: the next page of the lru after `cur`
 * (or the first), pinned; `cur` is unpinned, and freed if it died. */
struct page *page_pin_next(struct engine *e, struct page *cur)
{
	pthread_mutex_lock(&e->lru_lock);
	struct list_head *n = cur ? cur->lru.next : e->pages.next;
	if (n == &e->pages)
		n = e->pages.next;
	struct page *next = n == &e->pages ? NULL : list_entry(n, struct page, lru);
	if (next)
		next->pin++;
	bool drop = false;
	if (cur && --cur->pin == 0 && cur->dead) {
		list_del(&cur->lru);
		drop = true;
	}
	pthread_mutex_unlock(&e->lru_lock);
	if (drop)
		engine_free(e, C_PAGE, cur);
	return next;
}

/* zap_pte_range: page_remove_rmap for present ptes, swap_free for swap
 * entries; a page nobody maps nor holds in swap is freed. */
static void __zap_range(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long end)
{
	if (!mm->nr_ptes)
		return;
	if (end - start > mm->cap_ptes) { /* sparse: walk the table instead */
		for (size_t i = 0; i < mm->cap_ptes; i++) {
			struct pte *p = &mm->ptes[i];
			if (p->addr >= start && p->addr < end) {
				struct page *pg = p->page;
				if (p->swap)
					pg->swapcount--;
				else if (--pg->mapcount == 0)
					e->nr_mapped_pages--;
				pte_clear(mm, p->addr);
				free_page_if_unused(e, pg);
				i--; /* the deletion may have shifted another entry here */
			}
		}
		return;
	}
	for (unsigned long a = start; a < end; a++) {
		struct pte *p = pte_lookup(mm, a);
		if (!p)
			continue;
		struct page *pg = p->page;
		if (p->swap)
			pg->swapcount--;
		else if (--pg->mapcount == 0)
			e->nr_mapped_pages--;
		pte_clear(mm, a);
		free_page_if_unused(e, pg);
	}
}

void zap_range(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long end)
{
	ptl_lock(e);
	__zap_range(e, mm, start, end);
	ptl_unlock(e);
}

/* madvise(MADV_DONTNEED): the range's pages go (zap_page_range), its vmas
 * and their anon_vmas stay; a later touch faults a new page in. */
int madvise_dontneed(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len)
{
	struct vm_area_struct *vma = find_vma(mm, start);
	if (!len || !vma || vma->vm_start > start)
		return -ENOMEM; /* the kernel's answer for an unmapped start */
	zap_range(e, mm, start, start + len);
	return 0;
}

static int do_anonymous_page(struct engine *e, struct vm_area_struct *vma, unsigned long address)
{
	struct page *page = page_alloc(e);
	if (!page)
		return -ENOMEM;
	e->ops->page_add_new_anon_rmap(e, page, vma, address);
	struct pte *pte = pte_install(e, vma->vm_mm, address);
	pte->page = page;
	pte->swap = false;
	pte->young = true;
	e->nr_mapped_pages++;
	return 0;
}

/* The COW fault: reuse a page nobody else maps or holds in swap
 * (reuse_swap_page), else copy it into a new page of this vma. */
static int do_wp_page(struct engine *e, struct vm_area_struct *vma, unsigned long address, struct pte *pte)
{
	struct page *old = pte->page;
	if (old->mapcount + old->swapcount <= 1) {
		if (e->ops->page_move_anon_rmap)
			e->ops->page_move_anon_rmap(e, old, vma);
		pte->young = true;
		return 0;
	}
	struct page *new = page_alloc(e); /* anon_vma_prepare: done by handle_mm_fault */
	if (!new)
		return -ENOMEM;
	e->ops->page_add_new_anon_rmap(e, new, vma, address);
	pte = pte_lookup(vma->vm_mm, address); /* prepare may not move it, but be exact */
	pte->page = new;
	pte->young = true;
	e->nr_mapped_pages++;
	if (--old->mapcount == 0) /* page_remove_rmap */
		e->nr_mapped_pages--;
	free_page_if_unused(e, old);
	return 0;
}

static int do_swap_page(struct engine *e, struct vm_area_struct *vma, unsigned long address, struct pte *pte,
			bool write)
{
	struct page *page = pte->page;
	bool exclusive = page->mapcount + page->swapcount == 1; /* reuse_swap_page before mapping */
	pte->swap = false;
	pte->young = true;
	if (page->mapcount == 0) {
		e->nr_mapped_pages++;
		page->active = false; /* read back from swap: lru_cache_add_anon, inactive */
	}
	e->ops->page_add_anon_rmap(e, page, vma, address);
	page->swapcount--; /* swap_free */
	if (write && !exclusive)
		return do_wp_page(e, vma, address, pte);
	return 0;
}

int handle_mm_fault(struct engine *e, struct mm_struct *mm, unsigned long addr, bool write)
{
	struct vm_area_struct *vma = vma_containing(mm, addr);
	if (!vma || !(vma->vm_flags & (write ? VM_WRITE : VM_READ)))
		return -EFAULT; /* SIGSEGV */
	/* anon_vma_prepare takes the anon_vma lock, which comes before the
	 * page table lock: do it first (do_anonymous_page and do_wp_page's
	 * copy path need it; elsewhere it finds vma->anon_vma set). */
	if (write && e->ops->anon_vma_prepare(e, vma))
		return -ENOMEM;
	int rc = 0;
	ptl_lock(e);
	struct pte *pte = pte_lookup(mm, addr);
	if (!pte)
		rc = write ? do_anonymous_page(e, vma, addr) : 0; /* a read maps the zero page */
	else if (pte->swap)
		rc = do_swap_page(e, vma, addr, pte, write);
	else if (write)
		rc = do_wp_page(e, vma, addr, pte);
	ptl_unlock(e);
	return rc;
}

/* copy_page_range: both sides now share every page (COW), swap entries too. */
static void copy_one(struct engine *e, struct mm_struct *dst, struct mm_struct *src, unsigned long a)
{
	struct pte *s = pte_lookup(src, a);
	if (s) {
		struct page *page = s->page;
		bool swap = s->swap;
		struct pte *d = pte_install(e, dst, a);
		d->page = page;
		d->swap = swap;
		d->young = false; /* copy_present_pte: the child's pte starts old */
		if (swap)
			page->swapcount++;
		else
			page->mapcount++; /* page_dup_rmap */
	}
}

void copy_page_range(struct engine *e, struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma)
{
	if (vma->vm_end - vma->vm_start <= src->cap_ptes) {
		for (unsigned long a = vma->vm_start; a < vma->vm_end; a++)
			copy_one(e, dst, src, a);
		return;
	}
	/* a sparse vma: visit the source's table instead (it does not change) */
	for (size_t i = 0; i < src->cap_ptes; i++)
		if (src->ptes[i].addr >= vma->vm_start && src->ptes[i].addr < vma->vm_end)
			copy_one(e, dst, src, src->ptes[i].addr);
}
