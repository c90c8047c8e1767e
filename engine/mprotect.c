/* mm/mprotect.c: changing a range's flags splits and merges vmas, the
 * path of two of the 2010 bugs (merge-reuse, mprotect-wrong-chain). */
#include "engine.h"
#include "internal.h"

#include <errno.h>

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
