/* rmapbench-load: runs one workload point and prints its metrics.
 *   rmapbench-load WORKLOAD [key=value ...]
 *   rmapbench-load --list
 * Static, so that the guest agent can run it unchanged in any kernel. */
#include "workload.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: rmapbench-load WORKLOAD [key=value ...] | --list\n");
		return 2;
	}
	if (!strcmp(argv[1], "--list")) {
		for (int i = 0; workloads[i]; i++)
			printf("%-10s %s\n", workloads[i]->name, workloads[i]->summary);
		return 0;
	}
	const struct workload *w = workload_find(argv[1]);
	if (!w) {
		fprintf(stderr, "rmapbench-load: unknown workload '%s' (--list shows them)\n", argv[1]);
		return 2;
	}
	struct wl_params p;
	wl_params_default(&p);
	for (int i = 2; i < argc; i++) {
		char key[64], err[200];
		const char *val;
		if (wl_arg_split(argv[i], key, sizeof(key), &val) < 0) {
			fprintf(stderr, "rmapbench-load: argument '%s' is not key=value\n", argv[i]);
			return 2;
		}
		if (wl_params_set(&p, key, val, err, sizeof(err)) < 0) {
			fprintf(stderr, "rmapbench-load: %s\n", err);
			return 2;
		}
	}
	return wl_run(w, &p);
}
