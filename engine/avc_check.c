#include "avc_check.h"

bool avc_list_reaches(struct anon_vma *av, struct vm_area_struct *vma, unsigned long index)
{
	(void)index;
	struct anon_vma_chain *avc;
	list_for_each_entry(avc, &av->head, same_anon_vma)
		if (avc->vma == vma)
			return true;
	return false;
}

static bool on_list(struct anon_vma_chain *avc)
{
	struct anon_vma_chain *x;
	list_for_each_entry(x, &avc->anon_vma->head, same_anon_vma)
		if (x == avc)
			return true;
	return false;
}

static bool same_chain(struct vm_area_struct *a, struct vm_area_struct *b)
{
	struct list_head *x = a->anon_vma_chain.next, *y = b->anon_vma_chain.next;
	for (; x != &a->anon_vma_chain && y != &b->anon_vma_chain; x = x->next, y = y->next)
		if (list_entry(x, struct anon_vma_chain, same_vma)->anon_vma !=
		    list_entry(y, struct anon_vma_chain, same_vma)->anon_vma)
			return false;
	return x == &a->anon_vma_chain && y == &b->anon_vma_chain;
}

void avc_check(struct engine *e, bool oldest_last)
{
	struct mm_struct *mm;
	list_for_each_entry(mm, &e->mms, mmlist) {
		struct vm_area_struct *v;
		list_for_each_entry(v, &mm->mmap, vm_list) {
			struct anon_vma_chain *avc;
			bool own = !v->anon_vma;
			uint64_t oldest = UINT64_MAX;
			list_for_each_entry(avc, &v->anon_vma_chain, same_vma) {
				if (avc->vma != v)
					engine_fault(e, "chain_mismatch", "vma %d's chain holds an avc of vma %d", v->id,
						     avc->vma->id);
				if (avc->anon_vma->freed)
					engine_fault(e, "chain_to_freed", "vma %d's chain links freed anon_vma %llu", v->id,
						     (unsigned long long)avc->anon_vma->id);
				else if (!on_list(avc))
					engine_fault(e, "chain_mismatch", "vma %d's avc is not on anon_vma %llu's list",
						     v->id, (unsigned long long)avc->anon_vma->id);
				own |= avc->anon_vma == v->anon_vma;
				if (avc->anon_vma->id < oldest)
					oldest = avc->anon_vma->id;
			}
			if (!own)
				engine_fault(e, "chain_mismatch", "vma %d's anon_vma %llu is not in its chain", v->id,
					     (unsigned long long)v->anon_vma->id);
			if (oldest_last && !list_empty(&v->anon_vma_chain) &&
			    list_last_entry(&v->anon_vma_chain, struct anon_vma_chain, same_vma)->anon_vma->id != oldest)
				engine_fault(e, "chain_order",
					     "vma %d's chain ends in anon_vma %llu, not its oldest %llu", v->id,
					     (unsigned long long)list_last_entry(&v->anon_vma_chain, struct anon_vma_chain,
										  same_vma)->anon_vma->id,
					     (unsigned long long)oldest);
			if (!oldest_last || !v->anon_vma)
				continue;
			/* vmas sharing an anon_vma must have identical chains */
			struct mm_struct *m2;
			list_for_each_entry(m2, &e->mms, mmlist) {
				struct vm_area_struct *w;
				list_for_each_entry(w, &m2->mmap, vm_list)
					if (w != v && w->anon_vma == v->anon_vma && w->id > v->id && !same_chain(v, w))
						engine_fault(e, "chain_mismatch",
							     "vmas %d and %d share anon_vma %llu with different chains", v->id,
							     w->id, (unsigned long long)v->anon_vma->id);
			}
		}
	}
	struct anon_vma *av;
	list_for_each_entry(av, &e->anon_vmas, all) {
		if (av->freed)
			continue;
		struct anon_vma_chain *avc;
		list_for_each_entry(avc, &av->head, same_anon_vma)
			if (avc->anon_vma != av)
				engine_fault(e, "chain_mismatch", "anon_vma %llu's list holds an avc of another",
					     (unsigned long long)av->id);
	}
}
