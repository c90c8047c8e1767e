/* What the recorder knows a process maps: page number -> frame number, an
 * open-addressing table. A fork copies it; the child's later frames that
 * differ from it are its COW copies. */
#ifndef RECORD_PTAB_H
#define RECORD_PTAB_H

#include <stddef.h>
#include <stdint.h>

struct ptab {
	uint64_t *key, *pfn; /* key 0: empty (page 0 is never mapped) */
	size_t n, cap;
};

int ptab_copy(struct ptab *dst, const struct ptab *src);
uint64_t *ptab_find(const struct ptab *t, uint64_t page);
int ptab_set(struct ptab *t, uint64_t page, uint64_t pfn);
void ptab_del(struct ptab *t, uint64_t page);
void ptab_free(struct ptab *t);

#endif
