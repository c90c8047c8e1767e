/* avc-rc: the anon_vma_chain as merged for 2.6.34-rc1 (5beb49305251, with
 * c44b674323f's page_move_anon_rmap), before the fixes of the oops hunt.
 * Each process gets its own anon_vma; a vma's chain links it to its own
 * and to every ancestor's. The four bugs are here, as they were:
 *   1. page_add_anon_rmap gives an existing page the vma's own anon_vma;
 *   2. find_mergeable_anon_vma reuses any neighbour's anon_vma;
 *   3. vma_adjust clones the importer's own (empty) chain;
 *   4. anon_vma_clone walks forwards and list_add()s: the order reverses.
 * What 2.6.34 did not change is shared with it (rmap_avc.h); this file
 * holds only what the hunt changed. */
#include "rmap_avc.h"
#include "avc_check.h"

#include <errno.h>

static struct anon_vma *find_mergeable_anon_vma(struct engine *e, struct vm_area_struct *vma)
{
	struct vm_area_struct *near = anon_vma_compatible_neighbour(e, vma, true);
	if (!near)
		near = anon_vma_compatible_neighbour(e, vma, false);
	return near ? near->anon_vma : NULL; /* bug 2: whatever its chain */
}

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
		goto out_error;
	avc = anon_vma_chain_alloc(e);
	if (!avc)
		goto out_error_free_anon_vma;
	anon_vma_chain_link(e, vma, avc, anon_vma);
	/* Mark this anon_vma as the one where our new (COWed) pages go. */
	vma->anon_vma = anon_vma;
	return 0;

out_error_free_anon_vma:
	anon_vma_free_common(e, anon_vma);
out_error: /* as in rc1: the cloned chain is not unlinked (2.6.34 does) */
	return -ENOMEM;
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

const struct rmap_ops rmap_avc_rc = {
	.name = "avc-rc",
	.release = "2.6.34-rc1..rc3: anon_vma_chain as merged (5beb49305251)",
	.has_known_bugs = true,
	.find_mergeable_anon_vma = find_mergeable_anon_vma,
	.anon_vma_fork = anon_vma_fork,
	.anon_vma_clone = anon_vma_clone,
	.vma_adjust_import = vma_adjust_import,
	.page_add_new_anon_rmap = page_add_new_anon_rmap,
	.page_add_anon_rmap = page_add_anon_rmap,
	AVC_SHARED_OPS,
};
