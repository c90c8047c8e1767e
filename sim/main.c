/* rmapbench-sim: one point of a workload on the simulated machine.
 *   rmapbench-sim WORKLOAD [variant=NAME] [sim_KEY=VALUE ...] [key=value ...]
 * Workload keys are rmapbench-load's (workloads/params.c); sim_ keys are
 * the machine's (sim/params.c). */
#include "run.h"
#include "sim.h"
#include "workload.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: rmapbench-sim WORKLOAD [variant=NAME] [sim_KEY=VALUE ...] [key=value ...]\n");
		return 2;
	}
	const struct workload *w = workload_find(argv[1]);
	if (!w) {
		fprintf(stderr, "rmapbench-sim: unknown workload '%s' (rmapbench-load --list shows them)\n", argv[1]);
		return 2;
	}
	if (w->native_only) {
		fprintf(stderr, "rmapbench-sim: workload '%s' runs only natively (host or vm targets): the engine does not model its syscalls\n",
			argv[1]);
		return 2;
	}
	struct wl_params wp;
	struct sim_params sp;
	wl_params_default(&wp);
	sim_params_default(&sp);
	for (int i = 2; i < argc; i++) {
		char key[64], err[200];
		const char *val;
		if (wl_arg_split(argv[i], key, sizeof(key), &val) < 0) {
			fprintf(stderr, "rmapbench-sim: argument '%s' is not key=value\n", argv[i]);
			return 2;
		}
		int rc;
		if (!strcmp(key, "variant")) {
			rc = strlen(val) < sizeof(sp.variant) ? 0 : -1;
			snprintf(sp.variant, sizeof(sp.variant), "%s", val);
			snprintf(err, sizeof(err), "variant: name too long");
		} else if (sim_param_known(key)) {
			rc = sim_params_set(&sp, key, val, err, sizeof(err));
		} else {
			rc = wl_params_set(&wp, key, val, err, sizeof(err));
		}
		if (rc < 0) {
			fprintf(stderr, "rmapbench-sim: %s\n", err);
			return 2;
		}
	}
	return sim_run(w, &wp, &sp);
}
