/* rmapbench: the command line. Global options may stand anywhere. */
#include "commands.h"
#include "config.h"
#include "util.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: rmapbench [--db PATH] [--set KEY=VALUE]... COMMAND [ARGS]\n"
	      "\n"
	      "commands:\n"
	      "  run CONFIG                   run a suite (configs/*.conf) and record it\n"
	      "  runs                         list the recorded runs\n"
	      "  show RUN                     statistics per workload, users and metric (RUN: id or last)\n"
	      "  export RUN --format csv|json the tidy rows of a run\n"
	      "  report RUN                   remake a run's figures and HTML report\n"
	      "  workloads                    list the workload generators\n"
	      "  engine walkcost|scenario|replay|fuzz ...  the userspace rmap engine (engine --help)\n"
	      "  bench [FILTER] [--repetitions R] [--min-time S]  microbenchmarks into the database\n"
	      "  kernel list|fetch|build|run ...  kernels for the vm target (kernel --help)\n"
	      "  compare-kernels A B [--config FILE]  the same sweep on two kernels, and the differences\n"
	      "\n"
	      "options:\n"
	      "  --db PATH        results database (default $RMAPBENCH_DB or results/rmapbench.db)\n"
	      "  --set KEY=VALUE  override a config key for this run (repeatable)\n",
	      f);
}

int main(int argc, char **argv)
{
	const char *db = getenv("RMAPBENCH_DB");
	const char *sets[64], *pos[8], *format = NULL;
	int nsets = 0, npos = 0;
	if (!db || !*db)
		db = "results/rmapbench.db";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		int takes = !strcmp(a, "--db") || !strcmp(a, "--set") || !strcmp(a, "--format");
		if (takes && i + 1 >= argc) {
			rb_error("%s needs a value", a);
			return 2;
		}
		if (!strcmp(a, "--db")) {
			db = argv[++i];
		} else if (!strcmp(a, "--set")) {
			if (nsets == 64) {
				rb_error("--set: at most 64");
				return 2;
			}
			sets[nsets++] = argv[++i];
		} else if (!strcmp(a, "--format")) {
			format = argv[++i];
		} else if (!strncmp(a, "--db=", 5)) {
			db = a + 5;
		} else if (!strncmp(a, "--set=", 6) && nsets < 64) {
			sets[nsets++] = a + 6;
		} else if (!strncmp(a, "--format=", 9)) {
			format = a + 9;
		} else if (a[0] == '-' && a[1]) {
			rb_error("unknown option '%s' (rmapbench --help)", a);
			return 2;
		} else if (!npos && !strcmp(a, "bench")) {
			return cmd_bench(argc - i - 1, argv + i + 1, db);
		} else if (!npos && !strcmp(a, "kernel")) {
			return cmd_kernel(argc - i - 1, argv + i + 1, db);
		} else if (!npos && !strcmp(a, "compare-kernels")) {
			return cmd_compare_kernels(argc - i - 1, argv + i + 1, db);
		} else if (!npos && !strcmp(a, "engine")) {
			/* everything after "engine" is the engine's own */
			return cmd_engine(argc - i - 1, argv + i + 1, db);
		} else if (npos < 8) {
			pos[npos++] = a;
		} else {
			rb_error("too many arguments");
			return 2;
		}
	}
	if (!npos) {
		usage(stderr);
		return 2;
	}
	const char *cmd = pos[0];
	if (!strcmp(cmd, "run")) {
		if (npos != 2) {
			rb_error("run: expected one CONFIG file");
			return 2;
		}
		struct config cfg;
		char err[600];
		config_defaults(&cfg);
		if (config_load(&cfg, pos[1], err, sizeof(err)) < 0) {
			rb_error("%s", err);
			config_free(&cfg);
			return 2;
		}
		for (int i = 0; i < nsets; i++) {
			if (config_set(&cfg, sets[i], err, sizeof(err)) < 0) {
				rb_error("%s", err);
				config_free(&cfg);
				return 2;
			}
		}
		int rc = cmd_run(&cfg, db, NULL);
		config_free(&cfg);
		return rc;
	}
	if (nsets) {
		rb_error("--set applies to 'run' only");
		return 2;
	}
	if (!strcmp(cmd, "runs") && npos == 1)
		return cmd_runs(db);
	if (!strcmp(cmd, "show") && npos == 2)
		return cmd_show(db, pos[1]);
	if (!strcmp(cmd, "report") && npos == 2)
		return cmd_report(db, pos[1]);
	if (!strcmp(cmd, "export") && npos == 2) {
		if (!format) {
			rb_error("export: --format csv|json is required");
			return 2;
		}
		return cmd_export(db, pos[1], format);
	}
	if (!strcmp(cmd, "workloads") && npos == 1) {
		for (int i = 0; workloads[i]; i++)
			printf("%-15s %s\n", workloads[i]->name, workloads[i]->summary);
		printf("%-15s %s\n", "stress-ng-fork", "stress-ng --fork USERS for duration_s: the fork storm's yardstick");
		return 0;
	}
	if (!strcmp(cmd, "runs") || !strcmp(cmd, "show") || !strcmp(cmd, "report") || !strcmp(cmd, "export") ||
	    !strcmp(cmd, "workloads")) {
		rb_error("%s: wrong number of arguments (rmapbench --help)", cmd);
		return 2;
	}
	rb_error("unknown command '%s' (rmapbench --help)", cmd);
	return 2;
}
