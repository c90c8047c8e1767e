#include "external.h"

#include <string.h>

extern const struct external_workload ext_stressng_fork;

const struct external_workload *const external_workloads[] = { &ext_stressng_fork, NULL };

const struct external_workload *external_workload_find(const char *name)
{
	for (int i = 0; external_workloads[i]; i++)
		if (!strcmp(external_workloads[i]->name, name))
			return external_workloads[i];
	return NULL;
}
