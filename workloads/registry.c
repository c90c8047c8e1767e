/* Every workload, by name. Adding one: a file with its record, a line in
 * workloads.def. (Workloads that are not ours, such as stress-ng, register in
 * harness/run/external.c.) */
#include "workload.h"

#include <string.h>

#define WORKLOAD(name) extern const struct workload wl_##name;
#include "workloads.def"
#undef WORKLOAD

const struct workload *const workloads[] = {
#define WORKLOAD(name) &wl_##name,
#include "workloads.def"
#undef WORKLOAD
	NULL
};

const struct workload *workload_find(const char *name)
{
	for (int i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}
