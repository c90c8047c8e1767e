#include "interval_tree.h"
#include "engine.h"

#include <stdint.h>
#include <stdio.h>

static unsigned long vma_last_pgoff(const struct vm_area_struct *vma)
{
	return vma->vm_pgoff + (vma->vm_end - vma->vm_start) - 1;
}

/* (start, insertion) order: a total order, so that a node is found again. */
static int before(const struct anon_vma_chain *a, const struct anon_vma_chain *b)
{
	return a->it_start < b->it_start || (a->it_start == b->it_start && a->it_seq < b->it_seq);
}

static void augment(struct anon_vma_chain *n)
{
	unsigned long last = n->it_last;
	if (n->rb_left && n->rb_left->rb_subtree_last > last)
		last = n->rb_left->rb_subtree_last;
	if (n->rb_right && n->rb_right->rb_subtree_last > last)
		last = n->rb_right->rb_subtree_last;
	n->rb_subtree_last = last;
}

static struct anon_vma_chain *rotate_right(struct anon_vma_chain *n)
{
	struct anon_vma_chain *l = n->rb_left;
	n->rb_left = l->rb_right;
	l->rb_right = n;
	augment(n);
	augment(l);
	return l;
}

static struct anon_vma_chain *rotate_left(struct anon_vma_chain *n)
{
	struct anon_vma_chain *r = n->rb_right;
	n->rb_right = r->rb_left;
	r->rb_left = n;
	augment(n);
	augment(r);
	return r;
}

static struct anon_vma_chain *tree_insert(struct anon_vma_chain *root, struct anon_vma_chain *n)
{
	if (!root)
		return n;
	if (before(n, root)) {
		root->rb_left = tree_insert(root->rb_left, n);
		if (root->rb_left->it_prio > root->it_prio)
			return rotate_right(root);
	} else {
		root->rb_right = tree_insert(root->rb_right, n);
		if (root->rb_right->it_prio > root->it_prio)
			return rotate_left(root);
	}
	augment(root);
	return root;
}

static struct anon_vma_chain *join(struct anon_vma_chain *a, struct anon_vma_chain *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (a->it_prio > b->it_prio) {
		a->rb_right = join(a->rb_right, b);
		augment(a);
		return a;
	}
	b->rb_left = join(a, b->rb_left);
	augment(b);
	return b;
}

static struct anon_vma_chain *tree_remove(struct anon_vma_chain *root, struct anon_vma_chain *n)
{
	if (!root)
		return NULL; /* not in the tree: the checker will say so */
	if (root == n)
		return join(n->rb_left, n->rb_right);
	if (before(n, root))
		root->rb_left = tree_remove(root->rb_left, n);
	else
		root->rb_right = tree_remove(root->rb_right, n);
	augment(root);
	return root;
}

void anon_vma_interval_tree_insert(struct anon_vma_chain *avc, struct anon_vma *anon_vma)
{
	avc->it_start = avc->vma->vm_pgoff;
	avc->it_last = vma_last_pgoff(avc->vma);
	avc->it_seq = anon_vma->it_seq++;
	/* The priority only shapes the tree, never what a walk sees: any
	 * well-mixed value will do; this one depends on nothing shared. */
	uint64_t h = (uint64_t)(uintptr_t)avc * 0x9E3779B97F4A7C15ull ^ avc->it_seq * 0xBF58476D1CE4E5B9ull;
	avc->it_prio = (unsigned)(h >> 32);
	avc->rb_left = avc->rb_right = NULL;
	avc->rb_subtree_last = avc->it_last;
	anon_vma->rb_root = tree_insert(anon_vma->rb_root, avc);
}

void anon_vma_interval_tree_remove(struct anon_vma_chain *avc, struct anon_vma *anon_vma)
{
	anon_vma->rb_root = tree_remove(anon_vma->rb_root, avc);
	avc->rb_left = avc->rb_right = NULL;
}

/* The first node of the subtree, in order, that comes after `after` (any,
 * when NULL) and overlaps [start, last]. */
static struct anon_vma_chain *first_after(struct anon_vma_chain *n, unsigned long start, unsigned long last,
					  const struct anon_vma_chain *after)
{
	while (n && n->rb_subtree_last >= start) {
		if (!after || before(after, n)) {
			struct anon_vma_chain *l = first_after(n->rb_left, start, last, after);
			if (l)
				return l;
			if (n->it_start > last)
				return NULL; /* this node and all to its right start too late */
			if (n->it_last >= start)
				return n;
		} else if (n->it_start > last) {
			return NULL;
		}
		n = n->rb_right;
	}
	return NULL;
}

struct anon_vma_chain *anon_vma_interval_tree_iter_first(struct anon_vma *anon_vma, unsigned long start,
							 unsigned long last)
{
	return first_after(anon_vma->rb_root, start, last, NULL);
}

struct anon_vma_chain *anon_vma_interval_tree_iter_next(struct anon_vma_chain *avc, unsigned long start,
							unsigned long last)
{
	return first_after(avc->anon_vma->rb_root, start, last, avc);
}

static int verify(const struct anon_vma_chain *n, const struct anon_vma_chain **prev, unsigned long *count,
		  char *why, size_t len)
{
	if (!n)
		return 0;
	if (verify(n->rb_left, prev, count, why, len))
		return -1;
	unsigned long sub = n->it_last;
	if (n->rb_left && n->rb_left->rb_subtree_last > sub)
		sub = n->rb_left->rb_subtree_last;
	if (n->rb_right && n->rb_right->rb_subtree_last > sub)
		sub = n->rb_right->rb_subtree_last;
	if (*prev && !before(*prev, n)) {
		snprintf(why, len, "chains out of order at pgoff %lu", n->it_start);
		return -1;
	}
	if (sub != n->rb_subtree_last) {
		snprintf(why, len, "subtree last %lu, should be %lu", n->rb_subtree_last, sub);
		return -1;
	}
	if (n->it_start != n->vma->vm_pgoff || n->it_last != vma_last_pgoff(n->vma)) {
		snprintf(why, len, "chain cached [%lu, %lu] but its vma covers [%lu, %lu]: a boundary moved in the tree",
			 n->it_start, n->it_last, n->vma->vm_pgoff, vma_last_pgoff(n->vma));
		return -1;
	}
	*prev = n;
	(*count)++;
	return verify(n->rb_right, prev, count, why, len);
}

int anon_vma_interval_tree_verify(struct anon_vma *anon_vma, unsigned long *count, char *why, size_t len)
{
	const struct anon_vma_chain *prev = NULL;
	*count = 0;
	return verify(anon_vma->rb_root, &prev, count, why, len);
}
