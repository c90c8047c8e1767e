/* The vmas of an mm: allocation, the sorted list, and lookups (what
 * include/linux/mm.h and the list helpers of mm/mmap.c do). */
#include "engine.h"
#include "internal.h"

#include <stdlib.h>

struct vm_area_struct *vma_alloc(struct engine *e, struct mm_struct *mm)
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
struct vm_area_struct *vm_area_dup(struct engine *e, struct vm_area_struct *orig, struct mm_struct *mm)
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

void vma_link(struct mm_struct *mm, struct vm_area_struct *vma)
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

struct vm_area_struct *vma_containing(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *v = find_vma(mm, addr);
	return v && v->vm_start <= addr ? v : NULL;
}

/* The last vma that ends at or before addr. */
struct vm_area_struct *prev_of(struct mm_struct *mm, unsigned long addr)
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

void remove_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma)
{
	vma_unlink(mm, vma);
	engine_free(e, C_VMA, vma);
}
