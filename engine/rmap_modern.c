/* modern: Linux 6.1 mm/rmap.c (Debian's linux-source-6.1). The lock taken
 * is always the root anon_vma's (read for walks, write for changes); an
 * anon_vma holds a reference on its root, so the root is freed last; a
 * child vma reuses an ancestor's anon_vma that has no vma left and at most
 * one child (7a3ef208e662, 2555283eb40d); a walk visits only the chains
 * whose vma covers the page's index (bf181b9f9d8d's interval tree).
 *
 * Each anon_vma keeps its chains twice: in the interval tree that walks
 * use (interval_tree.h, the kernel's rb_root) and on a list (head) that
 * only the checker and the emptiness tests read. */
#include "engine.h"
#include "avc_check.h"
#include "interval_tree.h"

#include <errno.h>
#include <stdio.h>

static void anon_vma_lock_write(struct engine *e, struct anon_vma *anon_vma)
{
	anon_vma_lock(e, anon_vma->root);
}

static void anon_vma_unlock_write(struct engine *e, struct anon_vma *anon_vma)
{
	anon_vma_unlock(e, anon_vma->root);
}

static void anon_vma_lock_read(struct engine *e, struct anon_vma *anon_vma)
{
	anon_vma_down_read(e, anon_vma->root);
}

static void anon_vma_unlock_read(struct engine *e, struct anon_vma *anon_vma)
{
	anon_vma_up_read(e, anon_vma->root);
}

static struct anon_vma *anon_vma_alloc(struct engine *e)
{
	struct anon_vma *anon_vma = anon_vma_alloc_common(e);
	if (anon_vma) {
		anon_vma->refcount = 1;
		anon_vma->num_children = 0;
		anon_vma->num_active_vmas = 0;
		anon_vma->parent = anon_vma;
		/* Initialise the anon_vma root to point to itself. If called
		 * from fork, the root will be reset to the parents anon_vma. */
		anon_vma->root = anon_vma;
	}
	return anon_vma;
}

static void anon_vma_free(struct engine *e, struct anon_vma *anon_vma)
{
	if (anon_vma->refcount)
		engine_fault(e, "count_imbalance", "anon_vma %llu freed with refcount %d",
			     (unsigned long long)anon_vma->id, anon_vma->refcount);
	anon_vma_free_common(e, anon_vma);
}

static void get_anon_vma(struct anon_vma *anon_vma)
{
	anon_vma->refcount++;
}

static void __put_anon_vma(struct engine *e, struct anon_vma *anon_vma)
{
	struct anon_vma *root = anon_vma->root;
	anon_vma_free(e, anon_vma);
	if (root != anon_vma && --root->refcount == 0)
		anon_vma_free(e, root);
}

static void put_anon_vma(struct engine *e, struct anon_vma *anon_vma)
{
	if (--anon_vma->refcount == 0)
		__put_anon_vma(e, anon_vma);
}

/* reusable_anon_vma: only a neighbour whose chain is its own anon_vma */
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

static void anon_vma_chain_link(struct vm_area_struct *vma, struct anon_vma_chain *avc, struct anon_vma *anon_vma)
{
	avc->vma = vma;
	avc->anon_vma = anon_vma;
	list_add(&avc->same_vma, &vma->anon_vma_chain);
	list_add_tail(&avc->same_anon_vma, &anon_vma->head);
	anon_vma_interval_tree_insert(avc, anon_vma);
}

static int __anon_vma_prepare(struct engine *e, struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma, *allocated;
	struct anon_vma_chain *avc;
	if (vma->anon_vma)
		return 0;
	avc = anon_vma_chain_alloc(e);
	if (!avc)
		return -ENOMEM;
	anon_vma = find_mergeable_anon_vma(e, vma);
	allocated = NULL;
	if (!anon_vma) {
		anon_vma = anon_vma_alloc(e);
		if (!anon_vma) {
			anon_vma_chain_free(e, avc);
			return -ENOMEM;
		}
		anon_vma->num_children++; /* self-parent link for new root */
		allocated = anon_vma;
	}
	anon_vma_lock_write(e, anon_vma);
	vma->anon_vma = anon_vma;
	anon_vma_chain_link(vma, avc, anon_vma);
	anon_vma->num_active_vmas++;
	anon_vma_unlock_write(e, anon_vma);
	(void)allocated;
	return 0;
}

static void unlink_anon_vmas(struct engine *e, struct vm_area_struct *vma);

/* Attach the anon_vmas from src to dst; reuse one that has no vma and at
 * most one child. The root is never reused: it has a self-parent
 * reference and at least one child. */
static int anon_vma_clone(struct engine *e, struct vm_area_struct *dst, struct vm_area_struct *src)
{
	struct anon_vma_chain *avc, *pavc;
	list_for_each_entry_reverse(pavc, &src->anon_vma_chain, same_vma) {
		struct anon_vma *anon_vma;
		avc = anon_vma_chain_alloc(e);
		if (!avc)
			goto enomem_failure;
		anon_vma = pavc->anon_vma;
		anon_vma_lock_write(e, anon_vma);
		anon_vma_chain_link(dst, avc, anon_vma);
		if (!dst->anon_vma && src->anon_vma && anon_vma->num_children < 2 && anon_vma->num_active_vmas == 0)
			dst->anon_vma = anon_vma;
		anon_vma_unlock_write(e, anon_vma);
	}
	if (dst->anon_vma)
		dst->anon_vma->num_active_vmas++;
	return 0;

enomem_failure:
	/* dst->anon_vma is dropped here otherwise its degree can be
	 * incorrectly decremented in unlink_anon_vmas(). */
	dst->anon_vma = NULL;
	unlink_anon_vmas(e, dst);
	return -ENOMEM;
}

static int anon_vma_fork(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *pvma)
{
	struct anon_vma_chain *avc;
	struct anon_vma *anon_vma;
	int error;
	/* Don't bother if the parent process has no anon_vma here. */
	if (!pvma->anon_vma)
		return 0;
	/* Drop inherited anon_vma, we'll reuse existing or allocate new. */
	vma->anon_vma = NULL;
	/* First, attach the new VMA to the parent VMA's anon_vmas, so rmap
	 * can find non-COWed pages in child processes. */
	error = anon_vma_clone(e, vma, pvma);
	if (error)
		return error;
	/* An existing anon_vma has been reused, all done then. */
	if (vma->anon_vma)
		return 0;
	/* Then add our own anon_vma. */
	anon_vma = anon_vma_alloc(e);
	if (!anon_vma)
		goto out_error;
	anon_vma->num_active_vmas++;
	avc = anon_vma_chain_alloc(e);
	if (!avc)
		goto out_error_free_anon_vma;
	/* The root anon_vma's rwsem is the lock actually used when we lock
	 * any of the anon_vmas in this anon_vma tree. */
	anon_vma->root = pvma->anon_vma->root;
	anon_vma->parent = pvma->anon_vma;
	/* The root anon_vma needs to be pinned until this anon_vma is freed,
	 * because the lock lives in the root. */
	get_anon_vma(anon_vma->root);
	/* Mark this anon_vma as the one where our new (COWed) pages go. */
	vma->anon_vma = anon_vma;
	anon_vma_lock_write(e, anon_vma);
	anon_vma_chain_link(vma, avc, anon_vma);
	anon_vma->parent->num_children++;
	anon_vma_unlock_write(e, anon_vma);
	return 0;

out_error_free_anon_vma:
	put_anon_vma(e, anon_vma);
out_error:
	unlink_anon_vmas(e, vma);
	return -ENOMEM;
}

static void unlink_anon_vmas(struct engine *e, struct vm_area_struct *vma)
{
	struct anon_vma_chain *avc, *next;
	/* Unlink each anon_vma chained to the VMA. This list is ordered from
	 * newest to oldest, ensuring the root anon_vma gets freed last. */
	list_for_each_entry_safe(avc, next, &vma->anon_vma_chain, same_vma) {
		struct anon_vma *anon_vma = avc->anon_vma;
		anon_vma_lock_write(e, anon_vma);
		anon_vma_interval_tree_remove(avc, anon_vma);
		list_del(&avc->same_anon_vma);
		/* Leave empty anon_vmas on the list: freed outside the lock. */
		if (list_empty(&anon_vma->head)) {
			anon_vma->parent->num_children--;
			anon_vma_unlock_write(e, anon_vma);
			continue;
		}
		anon_vma_unlock_write(e, anon_vma);
		list_del(&avc->same_vma);
		anon_vma_chain_free(e, avc);
	}
	if (vma->anon_vma) {
		vma->anon_vma->num_active_vmas--;
		/* vma would still be needed after unlink, and anon_vma will be
		 * prepared when handle fault. */
		vma->anon_vma = NULL;
	}
	/* The list now only holds empty and unlinked anon_vmas: destroy them. */
	list_for_each_entry_safe(avc, next, &vma->anon_vma_chain, same_vma) {
		struct anon_vma *anon_vma = avc->anon_vma;
		if (anon_vma->num_children || anon_vma->num_active_vmas)
			engine_fault(e, "count_imbalance", "anon_vma %llu emptied with num_children %lu num_active_vmas %lu",
				     (unsigned long long)anon_vma->id, anon_vma->num_children, anon_vma->num_active_vmas);
		put_anon_vma(e, anon_vma);
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

static int vma_adjust_import(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *importer,
			     struct vm_area_struct *exporter)
{
	(void)vma;
	importer->anon_vma = exporter->anon_vma;
	return anon_vma_clone(e, importer, exporter);
}

/* The list_is_singular() test avoids merging a vma cloned from a parent,
 * which would tie the two processes' anon_vma locks together. */
static bool is_mergeable_anon_vma(struct anon_vma *anon_vma1, struct anon_vma *anon_vma2, struct vm_area_struct *vma)
{
	if ((!anon_vma1 || !anon_vma2) && (!vma || list_is_singular(&vma->anon_vma_chain)))
		return true;
	return anon_vma1 == anon_vma2;
}

/* An anon page keeps its mapping: only a page that is not anon yet is
 * given one, the vma's own if exclusive, else the root. */
static void __page_set_anon_rmap(struct page *page, struct vm_area_struct *vma, unsigned long address, int exclusive)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (page->mapping)
		goto out;
	if (!exclusive)
		anon_vma = anon_vma->root;
	page->mapping = anon_vma;
	page->index = address - vma->vm_start + vma->vm_pgoff;
out:
	if (exclusive)
		page->anon_exclusive = true;
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

static void folio_move_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma)
{
	(void)e;
	page->mapping = vma->anon_vma;
	page->anon_exclusive = true;
}

static void rmap_walk_anon(struct engine *e, struct page *page, struct rmap_walk_control *rwc)
{
	struct anon_vma *anon_vma = rwc->anon_vma;
	struct anon_vma_chain *avc;
	anon_vma_lock_read(e, anon_vma);
	e->ws.anon_vmas_locked++;
	if (!rmap_walk_begin(e, page, anon_vma)) {
		anon_vma_unlock_read(e, anon_vma);
		return;
	}
	unsigned long pgoff = page->index;
	list_for_each_entry(avc, &anon_vma->head, same_anon_vma)
		e->ws.vmas_scanned++;
	anon_vma_interval_tree_foreach(avc, anon_vma, pgoff, pgoff)
	{
		struct vm_area_struct *vma = avc->vma;
		unsigned long address = vma_address(page, vma);
		if (!address)
			continue;
		if (!rwc->rmap_one(e, page, vma, address, rwc->arg))
			break;
	}
	rmap_walk_end(e);
	anon_vma_unlock_read(e, anon_vma);
}

static bool anon_vma_reaches(struct anon_vma *av, struct vm_area_struct *vma, unsigned long index)
{
	struct anon_vma_chain *avc;
	anon_vma_interval_tree_foreach(avc, av, index, index)
	{
		if (avc->vma == vma)
			return true;
	}
	return false;
}

/* vma_adjust(): anon_vma_interval_tree_pre_update_vma() and
 * _post_update_vma(), under the anon_vma lock (the root's), around the
 * change of vma's boundaries and, when its boundary moves too, next's. */
static struct anon_vma *interval_update_anon_vma(struct vm_area_struct *vma, struct vm_area_struct *next)
{
	return vma->anon_vma ? vma->anon_vma : next ? next->anon_vma : NULL;
}

static void vma_interval_pre_update(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next)
{
	struct anon_vma *anon_vma = interval_update_anon_vma(vma, next);
	struct anon_vma_chain *avc;
	if (!anon_vma)
		return;
	anon_vma_lock_write(e, anon_vma);
	list_for_each_entry(avc, &vma->anon_vma_chain, same_vma)
		anon_vma_interval_tree_remove(avc, avc->anon_vma);
	if (next)
		list_for_each_entry(avc, &next->anon_vma_chain, same_vma)
			anon_vma_interval_tree_remove(avc, avc->anon_vma);
}

static void vma_interval_post_update(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next)
{
	struct anon_vma *anon_vma = interval_update_anon_vma(vma, next);
	struct anon_vma_chain *avc;
	if (!anon_vma)
		return;
	if (next)
		list_for_each_entry_reverse(avc, &next->anon_vma_chain, same_vma)
			anon_vma_interval_tree_insert(avc, avc->anon_vma);
	list_for_each_entry_reverse(avc, &vma->anon_vma_chain, same_vma)
		anon_vma_interval_tree_insert(avc, avc->anon_vma);
	anon_vma_unlock_write(e, anon_vma);
}

/* num_children counts the children whose tree is not empty (and the root's
 * self link while its tree is not); num_active_vmas the vmas pointing at
 * it; refcount one for itself while its tree is not empty, plus, on a
 * root, one per live descendant. */
static void check_modern(struct engine *e)
{
	avc_check(e, false);
	struct anon_vma *av;
	list_for_each_entry(av, &e->anon_vmas, all) {
		char why[200];
		unsigned long in_tree = 0, on_list = 0;
		struct anon_vma_chain *avc;
		if (av->freed)
			continue;
		list_for_each_entry(avc, &av->head, same_anon_vma)
			on_list++;
		if (anon_vma_interval_tree_verify(av, &in_tree, why, sizeof(why)) < 0)
			engine_fault(e, "interval_tree", "anon_vma %llu: %s", (unsigned long long)av->id, why);
		else if (in_tree != on_list)
			engine_fault(e, "interval_tree", "anon_vma %llu: %lu chains in its tree, %lu on its list",
				     (unsigned long long)av->id, in_tree, on_list);
	}
	list_for_each_entry(av, &e->anon_vmas, all)
		av->chk_children = av->chk_active = 0, av->chk_refs = 0;
	list_for_each_entry(av, &e->anon_vmas, all) {
		if (av->freed)
			continue;
		if (!list_empty(&av->head)) {
			av->parent->chk_children++;
			av->chk_refs++;
		}
		if (av->root != av)
			av->root->chk_refs++;
	}
	struct mm_struct *mm;
	list_for_each_entry(mm, &e->mms, mmlist) {
		struct vm_area_struct *v;
		list_for_each_entry(v, &mm->mmap, vm_list)
			if (v->anon_vma)
				v->anon_vma->chk_active++;
	}
	list_for_each_entry(av, &e->anon_vmas, all) {
		if (av->freed)
			continue;
		if (av->root->freed)
			engine_fault(e, "root_freed_first", "anon_vma %llu is live but its root %llu was freed",
				     (unsigned long long)av->id, (unsigned long long)av->root->id);
		if (av->num_children != av->chk_children || av->num_active_vmas != av->chk_active ||
		    av->refcount != av->chk_refs)
			engine_fault(e, "count_imbalance",
				     "anon_vma %llu: num_children %lu (expected %lu), num_active_vmas %lu (%lu), "
				     "refcount %d (%d)",
				     (unsigned long long)av->id, av->num_children, av->chk_children, av->num_active_vmas,
				     av->chk_active, av->refcount, av->chk_refs);
	}
}

const struct rmap_ops rmap_modern = {
	.name = "modern",
	.release = "6.1: root lock, refcounts, interval tree, anon_vma reuse",
	.find_mergeable_anon_vma = find_mergeable_anon_vma,
	.anon_vma_prepare = __anon_vma_prepare,
	.anon_vma_fork = anon_vma_fork,
	.anon_vma_clone = anon_vma_clone,
	.unlink_anon_vmas = unlink_anon_vmas,
	.anon_vma_merge = anon_vma_merge,
	.vma_adjust_import = vma_adjust_import,
	.is_mergeable_anon_vma = is_mergeable_anon_vma,
	.page_add_new_anon_rmap = page_add_new_anon_rmap,
	.page_add_anon_rmap = page_add_anon_rmap,
	.page_move_anon_rmap = folio_move_anon_rmap,
	.rmap_walk_anon = rmap_walk_anon,
	.anon_vma_reaches = anon_vma_reaches,
	.check = check_modern,
	.vma_interval_pre_update = vma_interval_pre_update,
	.vma_interval_post_update = vma_interval_post_update,
};
