/* kernel/fork.c: a new mm, and dup_mm copying every vma (anon_vma_fork)
 * and its ptes (copy_page_range). */
#include "engine.h"
#include "internal.h"

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
		copy_page_range(e, mm, oldmm, mpnt);
		ptl_unlock(e);
	}
	return mm;
fail:
	exit_mmap(e, mm);
	return NULL;
}
