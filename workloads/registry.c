/* Every workload, by name. Adding one: a file with its record, a line here. */
#include "workload.h"

#include <string.h>

extern const struct workload wl_aim7, wl_forkstorm, wl_cowstorm, wl_reclaim;

const struct workload *const workloads[] = { &wl_aim7, &wl_forkstorm, &wl_cowstorm, &wl_reclaim, NULL };

const struct workload *workload_find(const char *name)
{
	for (int i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}
