/* What the VM's own files share and nothing else needs, as the kernel's
 * mm/internal.h: vma.c at the bottom, then memory.c, mmap.c, and the
 * files that use them (mprotect.c, mremap.c, fork.c). */
#ifndef ENGINE_INTERNAL_H
#define ENGINE_INTERNAL_H

#include "engine.h"

/* vma.c */
struct vm_area_struct *vma_alloc(struct engine *e, struct mm_struct *mm);
/* vm_area_dup: a copy that is on no list yet */
struct vm_area_struct *vm_area_dup(struct engine *e, struct vm_area_struct *orig, struct mm_struct *mm);
void vma_link(struct mm_struct *mm, struct vm_area_struct *vma);
void remove_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma);
struct vm_area_struct *vma_containing(struct mm_struct *mm, unsigned long addr);
/* The last vma that ends at or before addr. */
struct vm_area_struct *prev_of(struct mm_struct *mm, unsigned long addr);

/* memory.c */
void zap_range(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long end);
void copy_page_range(struct engine *e, struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma);

/* mmap.c */
struct vm_area_struct *vma_merge(struct engine *e, struct mm_struct *mm, struct vm_area_struct *prev,
				 unsigned long addr, unsigned long end, unsigned long vm_flags,
				 struct anon_vma *anon_vma, unsigned long pgoff);
int split_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr, int new_below);
bool range_free(struct mm_struct *mm, unsigned long start, unsigned long end);
struct vm_area_struct *copy_vma(struct engine *e, struct mm_struct *mm, struct vm_area_struct *vma,
				unsigned long addr, unsigned long len, unsigned long pgoff);

#endif
