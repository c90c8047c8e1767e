/* Per-mm page tables: an open-addressed hash from address to pte. Only
 * what rmap needs: which page (or swap entry) an address maps. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

static size_t slot(unsigned long addr, size_t cap)
{
	return (size_t)((addr * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

struct pte *pte_lookup(struct mm_struct *mm, unsigned long addr)
{
	/* address 0 marks an empty slot, and is never mapped (mmap_min_addr) */
	if (!mm->cap_ptes || !addr)
		return NULL;
	for (size_t i = slot(addr, mm->cap_ptes);; i = (i + 1) & (mm->cap_ptes - 1)) {
		struct pte *p = &mm->ptes[i];
		if (p->addr == addr)
			return p;
		if (!p->addr)
			return NULL;
	}
}

static void rehash(struct mm_struct *mm, size_t cap)
{
	struct pte *old = mm->ptes;
	size_t oldcap = mm->cap_ptes;
	mm->ptes = calloc(cap, sizeof(*mm->ptes));
	if (!mm->ptes)
		abort();
	mm->cap_ptes = cap;
	for (size_t i = 0; i < oldcap; i++) {
		if (!old[i].addr)
			continue;
		size_t j = slot(old[i].addr, cap);
		while (mm->ptes[j].addr)
			j = (j + 1) & (cap - 1);
		mm->ptes[j] = old[i];
	}
	free(old);
}

struct pte *pte_install(struct engine *e, struct mm_struct *mm, unsigned long addr)
{
	(void)e;
	struct pte *p = pte_lookup(mm, addr);
	if (p)
		return p;
	if ((mm->nr_ptes + 1) * 2 > mm->cap_ptes)
		rehash(mm, mm->cap_ptes ? mm->cap_ptes * 2 : 64);
	size_t i = slot(addr, mm->cap_ptes);
	while (mm->ptes[i].addr)
		i = (i + 1) & (mm->cap_ptes - 1);
	mm->ptes[i] = (struct pte){ .addr = addr };
	mm->nr_ptes++;
	return &mm->ptes[i];
}

/* Backward-shift deletion keeps probe chains whole without tombstones. */
void pte_clear(struct mm_struct *mm, unsigned long addr)
{
	struct pte *p = pte_lookup(mm, addr);
	if (!p)
		return;
	size_t cap = mm->cap_ptes, i = (size_t)(p - mm->ptes), j = i;
	for (;;) {
		j = (j + 1) & (cap - 1);
		if (!mm->ptes[j].addr)
			break;
		size_t home = slot(mm->ptes[j].addr, cap);
		/* move j back to i if i lies cyclically in [home, j) */
		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			mm->ptes[i] = mm->ptes[j];
			i = j;
		}
	}
	memset(&mm->ptes[i], 0, sizeof(mm->ptes[i]));
	mm->nr_ptes--;
}

static int cmp_addr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
	return (x > y) - (x < y);
}

unsigned long *pte_range(struct mm_struct *mm, unsigned long start, unsigned long len, size_t *n)
{
	unsigned long *addrs = malloc((mm->nr_ptes + 1) * sizeof(*addrs));
	*n = 0;
	if (!addrs)
		return NULL;
	if (len <= mm->cap_ptes) {
		for (unsigned long i = 0; i < len; i++)
			if (pte_lookup(mm, start + i))
				addrs[(*n)++] = start + i;
		return addrs;
	}
	for (size_t i = 0; i < mm->cap_ptes; i++) /* address 0: an empty slot */
		if (mm->ptes[i].addr && mm->ptes[i].addr >= start && mm->ptes[i].addr - start < len)
			addrs[(*n)++] = mm->ptes[i].addr;
	qsort(addrs, *n, sizeof(*addrs), cmp_addr);
	return addrs;
}
