/* avc-rc: the anon_vma_chain as merged for 2.6.34-rc1 (5beb49305251, with
 * c44b674323f's page_move_anon_rmap), before the fixes of the oops hunt.
 * Each process gets its own anon_vma; a vma's chain links it to its own
 * and to every ancestor's. The four bugs are here, as they were:
 *   1. page_add_anon_rmap gives an existing page the vma's own anon_vma;
 *   2. find_mergeable_anon_vma reuses any neighbour's anon_vma;
 *   3. vma_adjust clones the importer's own (empty) chain;
 *   4. anon_vma_clone walks forwards and list_add()s: the order reverses.
 * An anon_vma is freed as soon as its own list is empty. */
#include "engine.h"
#include "avc_check.h"

#include <errno.h>

static struct anon_vma *find_mergeable_anon_vma(struct engine *e, struct vm_area_struct *vma)
{
	struct vm_area_struct *near = anon_vma_compatible_neighbour(e, vma, true);
	if (!near)
		near = anon_vma_compatible_neighbour(e, vma, false);
	return near ? near->anon_vma : NULL; /* bug 2: whatever its chain */
}

static int anon_vma_prepare(struct engine *e, struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (!anon_vma) {
		struct anon_vma_chain *avc = anon_vma_chain_alloc(e);
		if (!avc)
			return -ENOMEM;
		anon_vma = find_mergeable_anon_vma(e, vma);
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

static void anon_vma_chain_link(struct engine *e, struct vm_area_struct *vma, struct anon_vma_chain *avc,
				struct anon_vma *anon_vma)
{
	avc->vma = vma;
	avc->anon_vma = anon_vma;
	list_add(&avc->same_vma, &vma->anon_vma_chain);
	anon_vma_lock(e, anon_vma);
	list_add_tail(&avc->same_anon_vma, &anon_vma->head);
	anon_vma_unlock(e, anon_vma);
}

static void unlink_anon_vmas(struct engine *e, struct vm_area_struct *vma);

static int anon_vma_clone(struct engine *e, struct vm_area_struct *dst, struct vm_area_struct *src)
{
	struct anon_vma_chain *avc, *pavc;
	list_for_each_entry(pavc, &src->anon_vma_chain, same_vma) { /* bug 4: forwards */
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
	/* Don't bother if the parent process has no anon_vma here. */
	if (!pvma->anon_vma)
		return 0;
	/* First, attach the new VMA to the parent VMA's anon_vmas, so rmap
	 * can find non-COWed pages in child processes. */
	if (anon_vma_clone(e, vma, pvma))
		return -ENOMEM;
	/* Then add our own anon_vma. */
	anon_vma = anon_vma_alloc_common(e);
	if (!anon_vma)
		return -ENOMEM; /* as in rc1: the cloned chain is not unlinked */
	avc = anon_vma_chain_alloc(e);
	if (!avc) {
		anon_vma_free_common(e, anon_vma);
		return -ENOMEM;
	}
	anon_vma_chain_link(e, vma, avc, anon_vma);
	/* Mark this anon_vma as the one where our new (COWed) pages go. */
	vma->anon_vma = anon_vma;
	return 0;
}

static void anon_vma_unlink(struct engine *e, struct anon_vma_chain *anon_vma_chain)
{
	struct anon_vma *anon_vma = anon_vma_chain->anon_vma;
	if (!anon_vma)
		return;
	anon_vma_lock(e, anon_vma);
	list_del(&anon_vma_chain->same_anon_vma);
	/* We must garbage collect the anon_vma if it's empty */
	bool empty = list_empty(&anon_vma->head);
	anon_vma_unlock(e, anon_vma);
	if (empty)
		anon_vma_free_common(e, anon_vma);
}

static void unlink_anon_vmas(struct engine *e, struct vm_area_struct *vma)
{
	struct anon_vma_chain *avc, *next;
	/* Unlink each anon_vma chained to the VMA. */
	list_for_each_entry_safe(avc, next, &vma->anon_vma_chain, same_vma) {
		anon_vma_unlink(e, avc);
		list_del(&avc->same_vma);
		anon_vma_chain_free(e, avc);
	}
}

static void anon_vma_merge(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next)
{
	if (vma->anon_vma != next->anon_vma)
		engine_fault(e, "merge_mismatch", "anon_vma_merge: vma %d and next %d have different anon_vmas", vma->id,
			     next->id);
	unlink_anon_vmas(e, next);
}

/* bug 3: "anon_vma_clone(importer, vma)": for mprotect cases 5 and 6 the
 * importer is vma itself, which has no chain yet; it gets the exporter's
 * anon_vma without being linked to it. */
static int vma_adjust_import(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *importer,
			     struct vm_area_struct *exporter)
{
	if (anon_vma_clone(e, importer, vma))
		return -ENOMEM;
	importer->anon_vma = exporter->anon_vma;
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

/* bug 1: the first to map an existing page (a swap-in) makes it point at
 * its own anon_vma, which dies with it. */
static void page_add_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma, unsigned long address)
{
	(void)e;
	if (++page->mapcount == 1)
		__page_set_anon_rmap(page, vma, address);
}

static void page_move_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma)
{
	(void)e;
	page->mapping = vma->anon_vma;
}

static void rmap_walk_anon(struct engine *e, struct page *page, struct rmap_walk_control *rwc)
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

static void check_avc_rc(struct engine *e)
{
	avc_check(e, true);
}

const struct rmap_ops rmap_avc_rc = {
	.name = "avc-rc",
	.release = "2.6.34-rc1..rc3: anon_vma_chain as merged (5beb49305251)",
	.has_known_bugs = true,
	.anon_vma_prepare = anon_vma_prepare,
	.anon_vma_fork = anon_vma_fork,
	.anon_vma_clone = anon_vma_clone,
	.unlink_anon_vmas = unlink_anon_vmas,
	.anon_vma_merge = anon_vma_merge,
	.vma_adjust_import = vma_adjust_import,
	.is_mergeable_anon_vma = is_mergeable_anon_vma,
	.page_add_new_anon_rmap = page_add_new_anon_rmap,
	.page_add_anon_rmap = page_add_anon_rmap,
	.page_move_anon_rmap = page_move_anon_rmap,
	.rmap_walk_anon = rmap_walk_anon,
	.anon_vma_reaches = avc_list_reaches,
	.check = check_avc_rc,
};
