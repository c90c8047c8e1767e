/* `rmapbench workloads` and `rmapbench targets`: the tables a config's
 * workloads and target keys name, a line each. */
#include "commands.h"
#include "external.h"
#include "target.h"
#include "workload.h"

#include <stdio.h>

int cmd_workloads(void)
{
	for (int i = 0; workloads[i]; i++)
		printf("%-15s %s\n", workloads[i]->name, workloads[i]->summary);
	for (int i = 0; external_workloads[i]; i++)
		printf("%-15s %s\n", external_workloads[i]->name, external_workloads[i]->summary);
	return 0;
}

int cmd_targets(void)
{
	for (int i = 0; targets[i]; i++)
		printf("%-15s %s\n", targets[i]->name, targets[i]->summary);
	return 0;
}
