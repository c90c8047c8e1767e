/* avc: Linux 2.6.34 final, the anon_vma_chain with the fixes of the
 * 2.6.34-rc4..rc6 hunt (the root pointer and refcount came in 2.6.36):
 *   d0e9fe1758f  reuse a neighbour's anon_vma only if its chain is singular
 *   287d97ac032  vma_adjust clones from the exporter
 *   646d87b481d  anon_vma_clone walks backwards: the order is kept
 *   ea90002b0fa  an existing page takes the last chain entry, the oldest
 *   e8a03feb54c  new (exclusive) pages take vma->anon_vma
 *   31f2b0ebc01  no avc leak on anon_vma_prepare's race (no race here) */
#include "rmap_avc.h"
#include "avc_check.h"

#include <errno.h>

static struct anon_vma *find_mergeable_anon_vma(struct engine *e, struct vm_area_struct *vma)
{
	struct vm_area_struct *near = anon_vma_compatible_neighbour(e, vma, true);
	if (near && list_is_singular(&near->anon_vma_chain))
		return near->anon_vma;
	near = anon_vma_compatible_neighbour(e, vma, false);
	if (near && list_is_singular(&near->anon_vma_chain))
		return near->anon_vma;
	return NULL;
}

int anon_vma_prepare(struct engine *e, struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (!anon_vma) {
		struct anon_vma_chain *avc = anon_vma_chain_alloc(e);
		if (!avc)
			return -ENOMEM;
		anon_vma = e->ops->find_mergeable_anon_vma(e, vma);
		if (!anon_vma) {
			anon_vma = anon_vma_alloc_common(e);
			if (!anon_vma) {
				anon_vma_chain_free(e, avc);
				return -ENOMEM;
			}
		}
		anon_vma_lock(e, anon_vma);
		vma->anon_vma = anon_vma;
		avc->anon_vma = anon_vma;
		avc->vma = vma;
		list_add(&avc->same_vma, &vma->anon_vma_chain);
		list_add(&avc->same_anon_vma, &anon_vma->head);
		anon_vma_unlock(e, anon_vma);
	}
	return 0;
}

void anon_vma_chain_link(struct engine *e, struct vm_area_struct *vma, struct anon_vma_chain *avc,
				struct anon_vma *anon_vma)
{
	avc->vma = vma;
	avc->anon_vma = anon_vma;
	list_add(&avc->same_vma, &vma->anon_vma_chain);
	anon_vma_lock(e, anon_vma);
	list_add_tail(&avc->same_anon_vma, &anon_vma->head);
	anon_vma_unlock(e, anon_vma);
}

static int anon_vma_clone(struct engine *e, struct vm_area_struct *dst, struct vm_area_struct *src)
{
	struct anon_vma_chain *avc, *pavc;
	list_for_each_entry_reverse(pavc, &src->anon_vma_chain, same_vma) {
		avc = anon_vma_chain_alloc(e);
		if (!avc) {
			unlink_anon_vmas(e, dst);
			return -ENOMEM;
		}
		anon_vma_chain_link(e, dst, avc, pavc->anon_vma);
	}
	return 0;
}

static int anon_vma_fork(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *pvma)
{
	struct anon_vma_chain *avc;
	struct anon_vma *anon_vma;
	if (!pvma->anon_vma)
		return 0;
	if (anon_vma_clone(e, vma, pvma))
		return -ENOMEM;
	anon_vma = anon_vma_alloc_common(e);
	if (!anon_vma)
		goto out_error;
	avc = anon_vma_chain_alloc(e);
	if (!avc)
		goto out_error_free_anon_vma;
	anon_vma_chain_link(e, vma, avc, anon_vma);
	vma->anon_vma = anon_vma;
	return 0;

out_error_free_anon_vma:
	anon_vma_free_common(e, anon_vma);
out_error:
	unlink_anon_vmas(e, vma);
	return -ENOMEM;
}

static void anon_vma_unlink(struct engine *e, struct anon_vma_chain *anon_vma_chain)
{
	struct anon_vma *anon_vma = anon_vma_chain->anon_vma;
	if (!anon_vma)
		return;
	anon_vma_lock(e, anon_vma);
	list_del(&anon_vma_chain->same_anon_vma);
	bool empty = list_empty(&anon_vma->head);
	anon_vma_unlock(e, anon_vma);
	if (empty)
		anon_vma_free_common(e, anon_vma);
}

void unlink_anon_vmas(struct engine *e, struct vm_area_struct *vma)
{
	struct anon_vma_chain *avc, *next;
	list_for_each_entry_safe(avc, next, &vma->anon_vma_chain, same_vma) {
		anon_vma_unlink(e, avc);
		list_del(&avc->same_vma);
		anon_vma_chain_free(e, avc);
	}
}

void anon_vma_merge(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next)
{
	if (vma->anon_vma != next->anon_vma)
		engine_fault(e, "merge_mismatch", "anon_vma_merge: vma %d and next %d have different anon_vmas", vma->id,
			     next->id);
	unlink_anon_vmas(e, next);
}

static int vma_adjust_import(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *importer,
			     struct vm_area_struct *exporter)
{
	(void)vma;
	if (anon_vma_clone(e, importer, exporter))
		return -ENOMEM;
	importer->anon_vma = exporter->anon_vma;
	return 0;
}

bool is_mergeable_anon_vma(struct anon_vma *anon_vma1, struct anon_vma *anon_vma2, struct vm_area_struct *vma)
{
	(void)vma;
	return !anon_vma1 || !anon_vma2 || anon_vma1 == anon_vma2;
}

/* If the page isn't exclusively mapped into this vma, we must use the
 * _oldest_ possible anon_vma for the page mapping: the last chain entry. */
static void __page_set_anon_rmap(struct page *page, struct vm_area_struct *vma, unsigned long address, int exclusive)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (!exclusive)
		anon_vma = list_last_entry(&vma->anon_vma_chain, struct anon_vma_chain, same_vma)->anon_vma;
	page->mapping = anon_vma;
	page->index = address - vma->vm_start + vma->vm_pgoff;
}

static void page_add_new_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma,
				   unsigned long address)
{
	(void)e;
	page->mapcount = 1;
	__page_set_anon_rmap(page, vma, address, 1);
}

static void page_add_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma, unsigned long address)
{
	(void)e;
	if (++page->mapcount == 1)
		__page_set_anon_rmap(page, vma, address, 0);
}

void page_move_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma)
{
	(void)e;
	page->mapping = vma->anon_vma;
}

void rmap_walk_anon(struct engine *e, struct page *page, struct rmap_walk_control *rwc)
{
	struct anon_vma *anon_vma = rwc->anon_vma;
	struct anon_vma_chain *avc;
	anon_vma_lock(e, anon_vma);
	e->ws.anon_vmas_locked++;
	if (!rmap_walk_begin(e, page, anon_vma)) {
		anon_vma_unlock(e, anon_vma);
		return;
	}
	list_for_each_entry(avc, &anon_vma->head, same_anon_vma) {
		struct vm_area_struct *vma = avc->vma;
		e->ws.vmas_scanned++;
		unsigned long address = vma_address(page, vma);
		if (!address)
			continue;
		if (!rwc->rmap_one(e, page, vma, address, rwc->arg))
			break;
	}
	rmap_walk_end(e);
	anon_vma_unlock(e, anon_vma);
}

void check_avc(struct engine *e)
{
	avc_check(e, true);
}

const struct rmap_ops rmap_avc = {
	.name = "avc",
	.release = "2.6.34: anon_vma_chain with the rc4..rc6 fixes",
	.find_mergeable_anon_vma = find_mergeable_anon_vma,
	.anon_vma_fork = anon_vma_fork,
	.anon_vma_clone = anon_vma_clone,
	.vma_adjust_import = vma_adjust_import,
	.page_add_new_anon_rmap = page_add_new_anon_rmap,
	.page_add_anon_rmap = page_add_anon_rmap,
	AVC_SHARED_OPS,
};
