/* The modern design's anon_vma interval tree (mm/interval_tree.c over
 * include/linux/interval_tree_generic.h in 6.1): the chains of an
 * anon_vma keyed by their vma's [vm_pgoff, last pgoff], each subtree
 * knowing the largest last pgoff below it, so that a walk for one page
 * index visits only the chains that cover it, in O(log n + k).
 *
 * The kernel's tree is an augmented red-black tree; this one is an
 * augmented treap (random priorities, rotations alike). What a walk sees
 * is the same: overlapping chains in order of start pgoff, and among equal
 * starts in order of insertion (the kernel links an equal key to the
 * right). A chain's interval is cached when it is inserted; a vma whose
 * boundaries change is taken out and put back around the change
 * (anon_vma_interval_tree_pre/post_update_vma), and the checker compares
 * every cached interval with its vma. */
#ifndef ENGINE_INTERVAL_TREE_H
#define ENGINE_INTERVAL_TREE_H

#include <stddef.h>

struct anon_vma;
struct anon_vma_chain;

void anon_vma_interval_tree_insert(struct anon_vma_chain *avc, struct anon_vma *anon_vma);
void anon_vma_interval_tree_remove(struct anon_vma_chain *avc, struct anon_vma *anon_vma);
struct anon_vma_chain *anon_vma_interval_tree_iter_first(struct anon_vma *anon_vma, unsigned long start,
							 unsigned long last);
struct anon_vma_chain *anon_vma_interval_tree_iter_next(struct anon_vma_chain *avc, unsigned long start,
							unsigned long last);
/* The checker's: order, augmentation, cached intervals against the vmas,
 * and the node count; 0 when all hold, else a description in why. */
int anon_vma_interval_tree_verify(struct anon_vma *anon_vma, unsigned long *count, char *why, size_t len);

#define anon_vma_interval_tree_foreach(avc, anon_vma, start, last)                                             \
	for (avc = anon_vma_interval_tree_iter_first(anon_vma, start, last); avc;                             \
	     avc = anon_vma_interval_tree_iter_next(avc, start, last))

#endif
