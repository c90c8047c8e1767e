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
