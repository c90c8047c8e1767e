#include "ptab.h"

#include <stdlib.h>
#include <string.h>

static size_t slot(uint64_t page, size_t cap)
{
	uint64_t x = page * 0x9E3779B97F4A7C15ull;
	return (size_t)(x >> 20) & (cap - 1);
}

int ptab_copy(struct ptab *dst, const struct ptab *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->cap)
		return 0;
	dst->key = malloc(src->cap * sizeof(uint64_t));
	dst->pfn = malloc(src->cap * sizeof(uint64_t));
	if (!dst->key || !dst->pfn) {
		ptab_free(dst);
		return -1;
	}
	memcpy(dst->key, src->key, src->cap * sizeof(uint64_t));
	memcpy(dst->pfn, src->pfn, src->cap * sizeof(uint64_t));
	dst->n = src->n;
	dst->cap = src->cap;
	return 0;
}

uint64_t *ptab_find(const struct ptab *t, uint64_t page)
{
	if (!t->cap)
		return NULL;
	for (size_t i = slot(page, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (t->key[i] == page)
			return &t->pfn[i];
		if (!t->key[i])
			return NULL;
	}
}

static int grow(struct ptab *t)
{
	struct ptab n = { 0 };
	n.cap = t->cap ? t->cap * 2 : 1024;
	n.key = calloc(n.cap, sizeof(uint64_t));
	n.pfn = calloc(n.cap, sizeof(uint64_t));
	if (!n.key || !n.pfn) {
		ptab_free(&n);
		return -1;
	}
	for (size_t i = 0; i < t->cap; i++)
		if (t->key[i])
			ptab_set(&n, t->key[i], t->pfn[i]);
	ptab_free(t);
	*t = n;
	return 0;
}

int ptab_set(struct ptab *t, uint64_t page, uint64_t pfn)
{
	uint64_t *p = ptab_find(t, page);
	if (p) {
		*p = pfn;
		return 0;
	}
	if ((t->n + 1) * 4 > t->cap * 3 && grow(t) < 0)
		return -1;
	size_t i = slot(page, t->cap);
	while (t->key[i])
		i = (i + 1) & (t->cap - 1);
	t->key[i] = page;
	t->pfn[i] = pfn;
	t->n++;
	return 0;
}

/* Deletion with backward shift: no tombstones, lookups stay short. */
void ptab_del(struct ptab *t, uint64_t page)
{
	if (!t->cap)
		return;
	size_t i = slot(page, t->cap);
	while (t->key[i] != page) {
		if (!t->key[i])
			return;
		i = (i + 1) & (t->cap - 1);
	}
	for (size_t j = i;;) {
		j = (j + 1) & (t->cap - 1);
		if (!t->key[j])
			break;
		size_t home = slot(t->key[j], t->cap);
		/* j's entry may move to i if its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			t->key[i] = t->key[j];
			t->pfn[i] = t->pfn[j];
			i = j;
		}
	}
	t->key[i] = 0;
	t->pfn[i] = 0;
	t->n--;
}

void ptab_free(struct ptab *t)
{
	free(t->key);
	free(t->pfn);
	memset(t, 0, sizeof(*t));
}
