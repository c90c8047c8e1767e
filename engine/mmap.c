/* mm/mmap.c: mapping, unmapping and the paths that move vma boundaries
 * (vma_adjust, vma_merge, split_vma, copy_vma), where the anon_vma
 * designs are asked to link, clone and merge. Everything design-specific
 * goes through e->ops: the designs differ only where the kernel releases
 * differ. */
#include "engine.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>

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
struct vm_area_struct *vma_merge(struct engine *e, struct mm_struct *mm, struct vm_area_struct *prev,
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
int split_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
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

bool range_free(struct mm_struct *mm, unsigned long start, unsigned long end)
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

/* copy_vma: the destination of mremap, merged with a neighbour if it can
 * be, else a copy that gets the source's chain. */
struct vm_area_struct *copy_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma,
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
