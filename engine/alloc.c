/* A counting, fault-injecting allocator per object cache, as the kernel's
 * userspace harnesses (radix-tree, maple tree) have: live objects per
 * cache for leak checks, bytes for the memory figures, and a deterministic
 * "the nth allocation from now fails" for the error paths. */
#include "engine.h"

#include <stdlib.h>

const char *const cache_names[NR_CACHES] = { "mm_struct", "vm_area_struct", "anon_vma", "anon_vma_chain", "page" };
const size_t cache_sizes[NR_CACHES] = { sizeof(struct mm_struct), sizeof(struct vm_area_struct),
					sizeof(struct anon_vma), sizeof(struct anon_vma_chain), sizeof(struct page) };

void *engine_alloc(struct engine *e, enum cache c)
{
	if (e->fail_alloc_at && --e->fail_alloc_at == 0) /* single-threaded runs only */
		return NULL;
	void *p = calloc(1, cache_sizes[c]);
	if (!p)
		return NULL;
	__atomic_add_fetch(&e->live[c], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&e->allocs[c], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&e->bytes[c], cache_sizes[c], __ATOMIC_RELAXED);
	return p;
}

void engine_free(struct engine *e, enum cache c, void *p)
{
	if (!p)
		return;
	__atomic_sub_fetch(&e->live[c], 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&e->bytes[c], cache_sizes[c], __ATOMIC_RELAXED);
	free(p);
}
