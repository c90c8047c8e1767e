/* legacy: Linux 2.6.33 mm/rmap.c. One anon_vma per fork family; its head
 * lists every vma of the family (vma->anon_vma_node), so a walk of any
 * page of the family scans all of them. */
#include "engine.h"

#include <errno.h>

static struct anon_vma *find_mergeable_anon_vma(struct engine *e, struct vm_area_struct *vma)
{
	struct vm_area_struct *near = anon_vma_compatible_neighbour(e, vma, true);
	if (!near)
		near = anon_vma_compatible_neighbour(e, vma, false);
	return near ? near->anon_vma : NULL;
}

static void __anon_vma_link(struct vm_area_struct *vma)
{
	list_add_tail(&vma->anon_vma_node, &vma->anon_vma->head);
}

static int anon_vma_prepare(struct engine *e, struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (!anon_vma) {
		anon_vma = find_mergeable_anon_vma(e, vma);
		if (!anon_vma) {
			anon_vma = anon_vma_alloc_common(e);
			if (!anon_vma)
				return -ENOMEM;
		}
		anon_vma_lock(e, anon_vma);
		vma->anon_vma = anon_vma;
		list_add_tail(&vma->anon_vma_node, &anon_vma->head);
		anon_vma_unlock(e, anon_vma);
	}
	return 0;
}

/* dup_mmap: the child's copy joins the parent's list; no new anon_vma. */
static int anon_vma_link(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *pvma)
{
	(void)pvma;
	struct anon_vma *anon_vma = vma->anon_vma;
	if (anon_vma) {
		anon_vma_lock(e, anon_vma);
		list_add_tail(&vma->anon_vma_node, &anon_vma->head);
		anon_vma_unlock(e, anon_vma);
	}
	return 0;
}

/* 2.6.33 has no anon_vma_clone: split_vma's and copy_vma's new vma shares
 * the anon_vma and joins its list in __vma_link. */
static int vma_link_anon(struct engine *e, struct vm_area_struct *dst, struct vm_area_struct *src)
{
	(void)src;
	if (dst->anon_vma) {
		anon_vma_lock(e, dst->anon_vma);
		__anon_vma_link(dst);
		anon_vma_unlock(e, dst->anon_vma);
	}
	return 0;
}

static void anon_vma_unlink(struct engine *e, struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (!anon_vma)
		return;
	anon_vma_lock(e, anon_vma);
	list_del(&vma->anon_vma_node);
	/* We must garbage collect the anon_vma if it's empty */
	bool empty = list_empty(&anon_vma->head);
	anon_vma_unlock(e, anon_vma);
	if (empty)
		anon_vma_free_common(e, anon_vma);
}

static void __anon_vma_merge(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next)
{
	if (vma->anon_vma != next->anon_vma)
		engine_fault(e, "merge_mismatch", "__anon_vma_merge: vma %d and next %d have different anon_vmas", vma->id,
			     next->id);
	anon_vma_lock(e, next->anon_vma);
	list_del(&next->anon_vma_node);
	anon_vma_unlock(e, next->anon_vma);
}

static int vma_adjust_import(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *importer,
			     struct vm_area_struct *exporter)
{
	(void)vma;
	importer->anon_vma = exporter->anon_vma;
	anon_vma_lock(e, importer->anon_vma);
	__anon_vma_link(importer);
	anon_vma_unlock(e, importer->anon_vma);
	return 0;
}

static bool is_mergeable_anon_vma(struct anon_vma *anon_vma1, struct anon_vma *anon_vma2, struct vm_area_struct *vma)
{
	(void)vma;
	return !anon_vma1 || !anon_vma2 || anon_vma1 == anon_vma2;
}

static void __page_set_anon_rmap(struct page *page, struct vm_area_struct *vma, unsigned long address)
{
	page->mapping = vma->anon_vma;
	page->index = address - vma->vm_start + vma->vm_pgoff;
}

static void page_add_new_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma,
				   unsigned long address)
{
	(void)e;
	page->mapcount = 1;
	__page_set_anon_rmap(page, vma, address);
}

static void page_add_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma, unsigned long address)
{
	(void)e;
	if (++page->mapcount == 1) /* the family shares one anon_vma: harmless */
		__page_set_anon_rmap(page, vma, address);
}

static void rmap_walk_anon(struct engine *e, struct page *page, struct rmap_walk_control *rwc)
{
	struct anon_vma *anon_vma = rwc->anon_vma;
	struct vm_area_struct *vma;
	anon_vma_lock(e, anon_vma);
	e->ws.anon_vmas_locked++;
	if (!rmap_walk_begin(e, page, anon_vma)) {
		anon_vma_unlock(e, anon_vma);
		return;
	}
	list_for_each_entry(vma, &anon_vma->head, anon_vma_node) {
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

static bool anon_vma_reaches(struct anon_vma *av, struct vm_area_struct *vma, unsigned long index)
{
	(void)index;
	struct vm_area_struct *v;
	list_for_each_entry(v, &av->head, anon_vma_node)
		if (v == vma)
			return true;
	return false;
}

/* Every vma with an anon_vma is on that anon_vma's list, once. */
static void check_legacy(struct engine *e)
{
	struct anon_vma *av;
	list_for_each_entry(av, &e->anon_vmas, all) {
		if (av->freed)
			continue;
		struct vm_area_struct *v;
		list_for_each_entry(v, &av->head, anon_vma_node)
			if (v->anon_vma != av)
				engine_fault(e, "chain_mismatch", "vma %d is on anon_vma %llu's list but points at another",
					     v->id, (unsigned long long)av->id);
	}
	struct mm_struct *mm;
	list_for_each_entry(mm, &e->mms, mmlist) {
		struct vm_area_struct *v;
		list_for_each_entry(v, &mm->mmap, vm_list)
			if (v->anon_vma && !anon_vma_reaches(v->anon_vma, v, 0))
				engine_fault(e, "chain_mismatch", "vma %d is not on its anon_vma %llu's list", v->id,
					     (unsigned long long)v->anon_vma->id);
	}
}

const struct rmap_ops rmap_legacy = {
	.name = "legacy",
	.release = "2.6.33: one anon_vma per fork family",
	.find_mergeable_anon_vma = find_mergeable_anon_vma,
	.anon_vma_prepare = anon_vma_prepare,
	.anon_vma_fork = anon_vma_link,
	.anon_vma_clone = vma_link_anon,
	.unlink_anon_vmas = anon_vma_unlink,
	.anon_vma_merge = __anon_vma_merge,
	.vma_adjust_import = vma_adjust_import,
	.is_mergeable_anon_vma = is_mergeable_anon_vma,
	.page_add_new_anon_rmap = page_add_new_anon_rmap,
	.page_add_anon_rmap = page_add_anon_rmap,
	.page_move_anon_rmap = NULL,
	.rmap_walk_anon = rmap_walk_anon,
	.anon_vma_reaches = anon_vma_reaches,
	.check = check_legacy,
};
