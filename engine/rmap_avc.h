/* What 2.6.34-rc1 (avc-rc) and 2.6.34 (avc) share: the functions of
 * rmap_avc.c that the oops hunt did not change. rmap_avc_rc.c holds only
 * what it did change, so a diff of the two design files is the hunt. */
#ifndef ENGINE_RMAP_AVC_H
#define ENGINE_RMAP_AVC_H

#include "engine.h"

/* Asks e->ops->find_mergeable_anon_vma, which the hunt changed. */
int anon_vma_prepare(struct engine *e, struct vm_area_struct *vma);
/* list_add on the vma's chain (head), list_add_tail on the anon_vma's. */
void anon_vma_chain_link(struct engine *e, struct vm_area_struct *vma, struct anon_vma_chain *avc,
			 struct anon_vma *anon_vma);
/* An anon_vma is freed as soon as its own list is empty. */
void unlink_anon_vmas(struct engine *e, struct vm_area_struct *vma);
void anon_vma_merge(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next);
bool is_mergeable_anon_vma(struct anon_vma *anon_vma1, struct anon_vma *anon_vma2, struct vm_area_struct *vma);
void page_move_anon_rmap(struct engine *e, struct page *page, struct vm_area_struct *vma);
void rmap_walk_anon(struct engine *e, struct page *page, struct rmap_walk_control *rwc);
void check_avc(struct engine *e);

#define AVC_SHARED_OPS                                                                  \
	.anon_vma_prepare = anon_vma_prepare, .unlink_anon_vmas = unlink_anon_vmas,     \
	.anon_vma_merge = anon_vma_merge, .is_mergeable_anon_vma = is_mergeable_anon_vma, \
	.page_move_anon_rmap = page_move_anon_rmap, .rmap_walk_anon = rmap_walk_anon,   \
	.anon_vma_reaches = avc_list_reaches, .check = check_avc

#endif
