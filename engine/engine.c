/* The machine: the table of designs, and an engine's life (init, and
 * destroy, which exits every mm first). */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

const struct rmap_ops *const rmap_variants[] = { &rmap_legacy, &rmap_avc_rc, &rmap_avc, &rmap_modern, NULL };

_Static_assert(sizeof(rmap_variants) / sizeof(rmap_variants[0]) - 1 <= RMAP_MAX_VARIANTS,
	       "fuzz lanes and sweeps hold at most RMAP_MAX_VARIANTS designs");

const struct rmap_ops *rmap_ops_find(const char *name)
{
	for (int i = 0; rmap_variants[i]; i++)
		if (!strcmp(rmap_variants[i]->name, name))
			return rmap_variants[i];
	return NULL;
}

void engine_init(struct engine *e, const struct rmap_ops *ops)
{
	memset(e, 0, sizeof(*e));
	e->ops = ops;
	INIT_LIST_HEAD(&e->mms);
	INIT_LIST_HEAD(&e->pages);
	INIT_LIST_HEAD(&e->anon_vmas);
	pthread_mutex_init(&e->stats_lock, NULL);
	pthread_mutex_init(&e->ptl, NULL);
	pthread_mutex_init(&e->lru_lock, NULL);
}

void engine_destroy(struct engine *e)
{
	while (!list_empty(&e->mms))
		exit_mmap(e, list_first_entry(&e->mms, struct mm_struct, mmlist));
	struct page *pg, *pn;
	list_for_each_entry_safe(pg, pn, &e->pages, lru) {
		list_del(&pg->lru);
		engine_free(e, C_PAGE, pg);
	}
	struct anon_vma *av, *an;
	list_for_each_entry_safe(av, an, &e->anon_vmas, all) {
		if (!av->freed)
			anon_vma_free_common(e, av);
		list_del(&av->all);
		pthread_rwlock_destroy(&av->lock.rw);
		free(av);
	}
	free(e->faults);
	pthread_mutex_destroy(&e->stats_lock);
	pthread_mutex_destroy(&e->ptl);
	pthread_mutex_destroy(&e->lru_lock);
}
