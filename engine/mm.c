/* The VM around the reverse map: the paths of mm/mmap.c, mm/memory.c,
 * mm/mprotect.c, mm/mremap.c and kernel/fork.c that create, split, merge,
 * copy and destroy vmas and anonymous pages, reduced to what rmap sees.
 * Everything design-specific goes through e->ops: the four designs differ
 * only where the kernel releases differ. */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct mm_struct *mm_alloc(struct engine *e)
{
	struct mm_struct *mm = engine_alloc(e, C_MM);
	if (!mm)
		return NULL;
	INIT_LIST_HEAD(&mm->mmap);
	mm->id = __atomic_add_fetch(&e->next_mm, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&e->stats_lock);
	list_add_tail(&mm->mmlist, &e->mms);
	pthread_mutex_unlock(&e->stats_lock);
	return mm;
}

static struct vm_area_struct *vma_alloc(struct engine *e, struct mm_struct *mm)
{
	struct vm_area_struct *v = engine_alloc(e, C_VMA);
	if (!v)
		return NULL;
	v->vm_mm = mm;
	INIT_LIST_HEAD(&v->anon_vma_chain);
	INIT_LIST_HEAD(&v->vm_list);
	v->id = __atomic_add_fetch(&e->next_vma, 1, __ATOMIC_RELAXED);
	return v;
}

/* vm_area_dup: a copy that is on no list yet */
static struct vm_area_struct *vm_area_dup(struct engine *e, struct vm_area_struct *orig, struct mm_struct *mm)
{
	struct vm_area_struct *v = vma_alloc(e, mm);
	if (!v)
		return NULL;
	v->vm_start = orig->vm_start;
	v->vm_end = orig->vm_end;
	v->vm_pgoff = orig->vm_pgoff;
	v->vm_flags = orig->vm_flags;
	v->anon_vma = orig->anon_vma;
	return v;
}

static void vma_link(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *v;
	list_for_each_entry(v, &mm->mmap, vm_list) {
		if (v->vm_start > vma->vm_start) {
			__list_add(&vma->vm_list, v->vm_list.prev, &v->vm_list);
			mm->nr_vmas++;
			return;
		}
	}
	list_add_tail(&vma->vm_list, &mm->mmap);
	mm->nr_vmas++;
}

static void vma_unlink(struct mm_struct *mm, struct vm_area_struct *vma)
{
	list_del(&vma->vm_list);
	mm->nr_vmas--;
}

struct vm_area_struct *vma_next(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return vma->vm_list.next == &mm->mmap ? NULL : list_entry(vma->vm_list.next, struct vm_area_struct, vm_list);
}

struct vm_area_struct *vma_prev(struct mm_struct *mm, struct vm_area_struct *vma)
{
	return vma->vm_list.prev == &mm->mmap ? NULL : list_entry(vma->vm_list.prev, struct vm_area_struct, vm_list);
}

/* The first vma with vm_end > addr, as the kernel's find_vma. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *v;
	list_for_each_entry(v, &mm->mmap, vm_list)
		if (v->vm_end > addr)
			return v;
	return NULL;
}

static struct vm_area_struct *vma_containing(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *v = find_vma(mm, addr);
	return v && v->vm_start <= addr ? v : NULL;
}

/* The last vma that ends at or before addr. */
static struct vm_area_struct *prev_of(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *v, *prev = NULL;
	list_for_each_entry(v, &mm->mmap, vm_list) {
		if (v->vm_start >= addr)
			break;
		prev = v;
	}
	return prev;
}

unsigned long vma_address(struct page *page, struct vm_area_struct *vma)
{
	if (page->index < vma->vm_pgoff)
		return 0;
	unsigned long address = vma->vm_start + (page->index - vma->vm_pgoff);
	return address < vma->vm_end ? address : 0;
}

static struct page *page_alloc(struct engine *e)
{
	struct page *p = engine_alloc(e, C_PAGE);
	if (!p)
		return NULL;
	p->id = __atomic_add_fetch(&e->next_page, 1, __ATOMIC_RELAXED);
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
				else
					pg->mapcount--;
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
		else
			pg->mapcount--;
		pte_clear(mm, a);
		free_page_if_unused(e, pg);
	}
}

static void zap_range(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long end)
{
	ptl_lock(e);
	__zap_range(e, mm, start, end);
	ptl_unlock(e);
}

static void remove_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma)
{
	vma_unlink(mm, vma);
	engine_free(e, C_VMA, vma);
}

/* ---- vma_adjust, vma_merge, split_vma ---------------------------------- */

static int vma_adjust(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma, unsigned long start,
		      unsigned long end, unsigned long pgoff)
{
	struct vm_area_struct *next = vma_next(mm, vma);
	struct vm_area_struct *importer = NULL, *exporter = NULL;
	long adjust_next = 0;
	int remove_next = 0;

	if (next) {
		if (end >= next->vm_end) {
			/* vma expands, overlapping all the next, and perhaps the
			 * one after too (mprotect case 6) */
again:
			remove_next = 1 + (end > next->vm_end);
			end = next->vm_end;
			exporter = next;
			importer = vma;
		} else if (end > next->vm_start) {
			/* mprotect case 5: shifting the boundary up */
			adjust_next = (long)(end - next->vm_start);
			exporter = next;
			importer = vma;
		} else if (end < vma->vm_end) {
			/* mprotect case 4: shifting the boundary down */
			adjust_next = -(long)(vma->vm_end - end);
			exporter = vma;
			importer = next;
		}
	}
	/* The expanding vma must get the anon_vma of the one it takes pages
	 * from: how it does so is where 2.6.34-rc went wrong (bug 3). */
	if (exporter && exporter->anon_vma && !importer->anon_vma &&
	    e->ops->vma_adjust_import(e, vma, importer, exporter))
		return -ENOMEM;

	struct vm_area_struct *moved_next = adjust_next ? next : NULL;
	if (e->ops->vma_interval_pre_update)
		e->ops->vma_interval_pre_update(e, vma, moved_next);
	ptl_lock(e); /* walkers read the boundaries under it */
	vma->vm_start = start;
	vma->vm_end = end;
	vma->vm_pgoff = pgoff;
	if (adjust_next) {
		next->vm_start += (unsigned long)adjust_next;
		next->vm_pgoff += (unsigned long)adjust_next;
	}
	ptl_unlock(e);
	if (e->ops->vma_interval_post_update)
		e->ops->vma_interval_post_update(e, vma, moved_next);
	if (remove_next) {
		if (next->anon_vma)
			e->ops->anon_vma_merge(e, vma, next);
		remove_vma(e, mm, next);
		if (remove_next == 2) {
			next = vma_next(mm, vma);
			goto again;
		}
	}
	return 0;
}

static bool is_mergeable_vma(struct vm_area_struct *vma, unsigned long vm_flags)
{
	return vma->vm_flags == vm_flags;
}

static bool can_vma_merge_before(struct engine *e, struct vm_area_struct *vma, unsigned long vm_flags,
				 struct anon_vma *anon_vma, unsigned long vm_pgoff)
{
	return is_mergeable_vma(vma, vm_flags) && e->ops->is_mergeable_anon_vma(anon_vma, vma->anon_vma, vma) &&
	       vma->vm_pgoff == vm_pgoff;
}

static bool can_vma_merge_after(struct engine *e, struct vm_area_struct *vma, unsigned long vm_flags,
				struct anon_vma *anon_vma, unsigned long vm_pgoff)
{
	return is_mergeable_vma(vma, vm_flags) && e->ops->is_mergeable_anon_vma(anon_vma, vma->anon_vma, vma) &&
	       vma->vm_pgoff + (vma->vm_end - vma->vm_start) == vm_pgoff;
}

/* vma_merge: the cases of mm/mmap.c's diagram (1 to 8). */
static struct vm_area_struct *vma_merge(struct engine *e, struct mm_struct *mm, struct vm_area_struct *prev,
					unsigned long addr, unsigned long end, unsigned long vm_flags,
					struct anon_vma *anon_vma, unsigned long pgoff)
{
	unsigned long pglen = end - addr;
	struct vm_area_struct *next, *area;
	next = prev ? vma_next(mm, prev) : (list_empty(&mm->mmap) ? NULL : list_first_entry(&mm->mmap,
												struct vm_area_struct, vm_list));
	area = next;
	if (next && next->vm_end == end) /* cases 6, 7, 8 */
		next = vma_next(mm, next);

	if (prev && prev->vm_end == addr && can_vma_merge_after(e, prev, vm_flags, anon_vma, pgoff)) {
		int err;
		if (next && end == next->vm_start && can_vma_merge_before(e, next, vm_flags, anon_vma, pgoff + pglen) &&
		    e->ops->is_mergeable_anon_vma(prev->anon_vma, next->anon_vma, NULL))
			err = vma_adjust(e, mm, prev, prev->vm_start, next->vm_end, prev->vm_pgoff); /* cases 1, 6 */
		else
			err = vma_adjust(e, mm, prev, prev->vm_start, end, prev->vm_pgoff); /* cases 2, 5, 7 */
		return err ? NULL : prev;
	}
	if (next && end == next->vm_start && can_vma_merge_before(e, next, vm_flags, anon_vma, pgoff + pglen)) {
		int err;
		if (prev && addr < prev->vm_end) /* case 4 */
			err = vma_adjust(e, mm, prev, prev->vm_start, addr, prev->vm_pgoff);
		else /* cases 3, 8 */
			err = vma_adjust(e, mm, area, addr, next->vm_end, next->vm_pgoff - pglen);
		return err ? NULL : area;
	}
	return NULL;
}

/* find_mergeable_anon_vma's test, shared by every release: the neighbour
 * (after vma when `after`, else before) is adjacent, its pgoff continues
 * ours, and only the access flags (which mprotect may change) differ. */
struct vm_area_struct *anon_vma_compatible_neighbour(struct engine *e, struct vm_area_struct *vma, bool after)
{
	struct mm_struct *mm = vma->vm_mm;
	struct vm_area_struct *near = after ? vma_next(mm, vma) : vma_prev(mm, vma);
	if (!near || !near->anon_vma)
		return NULL;
	unsigned long vm_flags = (vma->vm_flags & ~VM_ACCESS_FLAGS) | (near->vm_flags & VM_ACCESS_FLAGS);
	if (after && vma->vm_end == near->vm_start &&
	    can_vma_merge_before(e, near, vm_flags, NULL, vma->vm_pgoff + (vma->vm_end - vma->vm_start)))
		return near;
	if (!after && near->vm_end == vma->vm_start && can_vma_merge_after(e, near, vm_flags, NULL, vma->vm_pgoff))
		return near;
	return NULL;
}

/* __split_vma: the new vma is a copy that gets the old one's chain. */
static int split_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
		     int new_below)
{
	struct vm_area_struct *new = vm_area_dup(e, vma, mm);
	if (!new)
		return -ENOMEM;
	if (new_below) {
		new->vm_end = addr;
	} else {
		new->vm_start = addr;
		new->vm_pgoff += addr - vma->vm_start;
	}
	if (e->ops->anon_vma_clone(e, new, vma)) {
		engine_free(e, C_VMA, new);
		return -ENOMEM;
	}
	/* 6.1 does this through vma_adjust(), which updates the trees */
	if (e->ops->vma_interval_pre_update)
		e->ops->vma_interval_pre_update(e, vma, NULL);
	ptl_lock(e);
	if (new_below) {
		vma->vm_pgoff += addr - vma->vm_start;
		vma->vm_start = addr;
	} else {
		vma->vm_end = addr;
	}
	ptl_unlock(e);
	if (e->ops->vma_interval_post_update)
		e->ops->vma_interval_post_update(e, vma, NULL);
	vma_link(mm, new);
	return 0;
}

/* ---- mmap, faults ------------------------------------------------------ */

static bool range_free(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *v = find_vma(mm, start);
	return !v || v->vm_start >= end;
}

int do_mmap(struct engine *e, struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long flags)
{
	unsigned long end = addr + len;
	if (!len || !addr || end < addr || !range_free(mm, addr, end))
		return -EINVAL;
	/* anonymous: vm_pgoff is the address, so that neighbours can merge */
	if (vma_merge(e, mm, prev_of(mm, addr), addr, end, flags, NULL, addr))
		return 0;
	struct vm_area_struct *vma = vma_alloc(e, mm);
	if (!vma)
		return -ENOMEM;
	vma->vm_start = addr;
	vma->vm_end = end;
	vma->vm_pgoff = addr;
	vma->vm_flags = flags;
	vma_link(mm, vma);
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
		return 0;
	}
	struct page *new = page_alloc(e); /* anon_vma_prepare: done by handle_mm_fault */
	if (!new)
		return -ENOMEM;
	e->ops->page_add_new_anon_rmap(e, new, vma, address);
	pte = pte_lookup(vma->vm_mm, address); /* prepare may not move it, but be exact */
	pte->page = new;
	old->mapcount--; /* page_remove_rmap */
	free_page_if_unused(e, old);
	return 0;
}

static int do_swap_page(struct engine *e, struct vm_area_struct *vma, unsigned long address, struct pte *pte,
			bool write)
{
	struct page *page = pte->page;
	bool exclusive = page->mapcount + page->swapcount == 1; /* reuse_swap_page before mapping */
	pte->swap = false;
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

/* ---- fork and exit ----------------------------------------------------- */

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
		if (swap)
			page->swapcount++;
		else
			page->mapcount++; /* page_dup_rmap */
	}
}

static void copy_range(struct engine *e, struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma)
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

struct mm_struct *dup_mm(struct engine *e, struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_alloc(e);
	if (!mm)
		return NULL;
	struct vm_area_struct *mpnt;
	list_for_each_entry(mpnt, &oldmm->mmap, vm_list) {
		struct vm_area_struct *tmp = vm_area_dup(e, mpnt, mm);
		if (!tmp)
			goto fail;
		if (e->ops->anon_vma_fork(e, tmp, mpnt)) {
			engine_free(e, C_VMA, tmp);
			goto fail;
		}
		vma_link(mm, tmp);
		ptl_lock(e);
		copy_range(e, mm, oldmm, mpnt);
		ptl_unlock(e);
	}
	return mm;
fail:
	exit_mmap(e, mm);
	return NULL;
}

/* exit_mmap: unmap everything first, then free_pgtables unlinks the
 * anon_vmas of every vma, then the vmas go. */
void exit_mmap(struct engine *e, struct mm_struct *mm)
{
	struct vm_area_struct *v, *n;
	list_for_each_entry(v, &mm->mmap, vm_list)
		zap_range(e, mm, v->vm_start, v->vm_end);
	list_for_each_entry(v, &mm->mmap, vm_list)
		e->ops->unlink_anon_vmas(e, v);
	list_for_each_entry_safe(v, n, &mm->mmap, vm_list)
		remove_vma(e, mm, v);
	free(mm->ptes);
	pthread_mutex_lock(&e->stats_lock);
	list_del(&mm->mmlist);
	pthread_mutex_unlock(&e->stats_lock);
	engine_free(e, C_MM, mm);
}

/* ---- munmap, mprotect, mremap ------------------------------------------ */

int do_munmap(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end = start + len;
	if (!len || end < start)
		return -EINVAL;
	struct vm_area_struct *vma = find_vma(mm, start);
	if (!vma || vma->vm_start >= end)
		return 0;
	if (start > vma->vm_start) {
		if (split_vma(e, mm, vma, start, 0))
			return -ENOMEM;
		vma = vma_next(mm, vma);
	}
	struct vm_area_struct *last = find_vma(mm, end);
	if (last && end > last->vm_start && split_vma(e, mm, last, end, 1))
		return -ENOMEM;
	/* the split below end may have cut the vma we held: look again, as
	 * the kernel does with prev->vm_next */
	vma = find_vma(mm, start);
	/* detach [start, end): unmap_region, then free_pgtables, then remove */
	for (struct vm_area_struct *v = vma; v && v->vm_start < end; v = vma_next(mm, v))
		zap_range(e, mm, v->vm_start, v->vm_end);
	for (struct vm_area_struct *v = vma; v && v->vm_start < end; v = vma_next(mm, v))
		e->ops->unlink_anon_vmas(e, v);
	while (vma && vma->vm_start < end) {
		struct vm_area_struct *n = vma_next(mm, vma);
		remove_vma(e, mm, vma);
		vma = n;
	}
	return 0;
}

static int mprotect_fixup(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma,
			  struct vm_area_struct **pprev, unsigned long start, unsigned long end, unsigned long newflags)
{
	if (newflags == vma->vm_flags) {
		*pprev = vma;
		return 0;
	}
	unsigned long pgoff = vma->vm_pgoff + (start - vma->vm_start);
	*pprev = vma_merge(e, mm, *pprev, start, end, newflags, vma->anon_vma, pgoff);
	if (*pprev) {
		vma = *pprev;
		goto success;
	}
	*pprev = vma;
	if (start != vma->vm_start && split_vma(e, mm, vma, start, 1))
		return -ENOMEM;
	if (end != vma->vm_end && split_vma(e, mm, vma, end, 0))
		return -ENOMEM;
success:
	vma->vm_flags = newflags;
	return 0;
}

int do_mprotect(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long flags)
{
	unsigned long end = start + len;
	if (!len || end < start)
		return -EINVAL;
	struct vm_area_struct *vma = find_vma(mm, start);
	if (!vma || vma->vm_start > start)
		return -ENOMEM;
	struct vm_area_struct *prev = start > vma->vm_start ? vma : vma_prev(mm, vma);
	for (unsigned long nstart = start;;) {
		unsigned long tmp = vma->vm_end < end ? vma->vm_end : end;
		int err = mprotect_fixup(e, mm, vma, &prev, nstart, tmp, flags);
		if (err)
			return err;
		nstart = tmp;
		if (nstart < prev->vm_end)
			nstart = prev->vm_end;
		if (nstart >= end)
			return 0;
		vma = vma_next(mm, prev);
		if (!vma || vma->vm_start != nstart)
			return -ENOMEM;
	}
}

/* copy_vma: the destination of mremap, merged with a neighbour if it can
 * be, else a copy that gets the source's chain. */
static struct vm_area_struct *copy_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma,
				       unsigned long addr, unsigned long len, unsigned long pgoff)
{
	if (!vma->anon_vma) /* never faulted: take the pgoff of the new place */
		pgoff = addr;
	struct vm_area_struct *new_vma =
		vma_merge(e, mm, prev_of(mm, addr), addr, addr + len, vma->vm_flags, vma->anon_vma, pgoff);
	/* The latent bug of findings/mremap-merge-unfaulted-prev.trace: the
	 * vma the pages move into has no anon_vma, so once the source goes,
	 * they point at a freed one. Those kernels went on regardless, and
	 * so does the engine; the note lets the fuzzer tell this known bug
	 * from a new one. */
	if (new_vma && vma->anon_vma && !new_vma->anon_vma)
		engine_finding(e, "mremap-merge-unfaulted-prev");
	if (new_vma)
		return new_vma;
	new_vma = vm_area_dup(e, vma, mm);
	if (!new_vma)
		return NULL;
	new_vma->vm_start = addr;
	new_vma->vm_end = addr + len;
	new_vma->vm_pgoff = pgoff;
	if (e->ops->anon_vma_clone(e, new_vma, vma)) {
		engine_free(e, C_VMA, new_vma);
		return NULL;
	}
	vma_link(mm, new_vma);
	return new_vma;
}

int do_mremap(struct engine *e, struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long new_addr)
{
	struct vm_area_struct *vma = vma_containing(mm, addr);
	if (!len || !new_addr || !vma || addr + len > vma->vm_end || !range_free(mm, new_addr, new_addr + len))
		return -EINVAL;
	unsigned long new_pgoff = vma->vm_pgoff + (addr - vma->vm_start);
	struct vm_area_struct *new_vma = copy_vma(e, mm, vma, new_addr, len, new_pgoff);
	if (!new_vma)
		return -ENOMEM;
	/* move_page_tables: the pages keep their index, the ptes move. A
	 * sparse range is collected from the table first. */
	/* at most every pte of the mm can be in the range */
	size_t n = 0;
	ptl_lock(e);
	unsigned long *from = malloc((mm->nr_ptes + 1) * sizeof(*from));
	if (!from) {
		ptl_unlock(e);
		return -ENOMEM;
	}
	if (len <= mm->cap_ptes) {
		for (unsigned long i = 0; i < len; i++)
			if (pte_lookup(mm, addr + i))
				from[n++] = addr + i;
	} else {
		for (size_t i = 0; i < mm->cap_ptes; i++)
			if (mm->ptes[i].addr >= addr && mm->ptes[i].addr < addr + len)
				from[n++] = mm->ptes[i].addr;
	}
	for (size_t i = 0; i < n; i++) {
		struct pte moved = *pte_lookup(mm, from[i]);
		pte_clear(mm, from[i]);
		struct pte *d = pte_install(e, mm, new_addr + (from[i] - addr));
		d->page = moved.page;
		d->swap = moved.swap;
	}
	ptl_unlock(e);
	free(from);
	return do_munmap(e, mm, addr, len);
}

/* ---- reclaim ----------------------------------------------------------- */

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
		ra->referenced++;
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
	(void)e;
	(void)arg;
	struct pte *pte = pte_lookup(vma->vm_mm, address);
	if (pte && !pte->swap && pte->page == page) {
		pte->swap = true; /* the pte becomes a swap entry; the page stays in swap cache */
		page->mapcount--;
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
