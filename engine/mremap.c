/* mm/mremap.c: moving a range copies its vma (copy_vma, mmap.c) and
 * moves its ptes; the pages keep their index. */
#include "engine.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>

int do_mremap(struct engine *e, struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long new_addr)
{
	struct vm_area_struct *vma = vma_containing(mm, addr);
	if (!len || !new_addr || !vma || addr + len > vma->vm_end || !range_free(mm, new_addr, new_addr + len))
		return -EINVAL;
	unsigned long new_pgoff = vma->vm_pgoff + (addr - vma->vm_start);
	struct vm_area_struct *new_vma = copy_vma(e, mm, vma, new_addr, len, new_pgoff);
	if (!new_vma)
		return -ENOMEM;
	/* move_page_tables: the pages keep their index, the ptes move */
	size_t n;
	ptl_lock(e);
	unsigned long *from = pte_range(mm, addr, len, &n);
	if (!from) {
		ptl_unlock(e);
		return -ENOMEM;
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
