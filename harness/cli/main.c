/* rmapbench: the command line. Global options may stand anywhere. */
#include "commands.h"
#include "config.h"
#include "external.h"
#include "target.h"
#include "flags.h"
#include "suite.h"
#include "util.h"
#include "workload.h"

#include <stdbool.h>
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
	      "  targets                      list the targets a config's target key names\n"
	      "  engine walkcost|scenario|replay|fuzz ...  the userspace rmap engine (engine --help)\n"
	      "  record [--out F] -- CMD ...  trace what CMD's process tree does to anonymous memory\n"
	      "  replay FILE [--variant all]  a recorded trace on the designs side by side (replay --help)\n"
	      "  bench [FILTER | --variant V] [--repetitions R] [--min-time S]  microbenchmarks into the database\n"
	      "  kernel list|fetch|build|run ...  kernels for the vm target (kernel --help)\n"
	      "  compare-kernels A B [--config FILE]  the same sweep on two kernels, and the differences\n"
	      "  bisect GOOD BAD --tree PATH --config FILE [--metric M]  the commit that regressed (bisect --help)\n"
	      "  compare A B [--junit F] [--markdown F]  verdicts between runs (ID, last, last~N, DB:ID; A1,A2 for sets)\n"
	      "  nightly [--config F] [--set K=V] [--baseline RUN] [--junit F] [--markdown F]  the suite against its baseline\n"
	      "  baseline set RUN | show | clear [--config F]  the nightly's pinned baseline on this machine\n"
	      "  db merge OTHER.db...         other databases' runs into this one, each once (by uuid)\n"
	      "  calibrate-walk [--families N,..]  an rmap walk's cost by its length on this kernel, for target engine\n"
	      "  paper [--json] [--config F]  the 2010 crossover on the engine: legacy, avc and modern\n"
	      "\n"
	      "options:\n"
	      "  --db PATH        results database (default $RMAPBENCH_DB or results/rmapbench.db)\n"
	      "  --set KEY=VALUE  override a config key for this run (repeatable)\n"
	      "  --shard I/N      run only point k where k mod N = I - 1 (a CI matrix; db merge joins them)\n"
	      "  --dry-run        print the plan of points; run and record nothing\n",
	      f);
}

/* Commands that parse their own arguments: everything after the name. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv, const char *db_path);
} own_args[] = {
	{ "bench", cmd_bench },
	{ "kernel", cmd_kernel },
	{ "compare-kernels", cmd_compare_kernels },
	{ "bisect", cmd_bisect },
	{ "record", cmd_record },
	{ "replay", cmd_replay },
	{ "engine", cmd_engine },
	{ "compare", cmd_compare },
	{ "nightly", cmd_nightly },
	{ "baseline", cmd_baseline },
	{ "db", cmd_db },
	{ "calibrate-walk", cmd_calibrate_walk },
	{ "paper", cmd_paper },
};

int main(int argc, char **argv)
{
	const char *db = getenv("RMAPBENCH_DB");
	const char *sets[64], *pos[8], *format = NULL, *shard = NULL;
	bool dry_run = false;
	int nsets = 0, npos = 0;
	bool help = false;
	if (!db || !*db)
		db = "results/rmapbench.db";
	const struct flag flags[] = {
		{ "--db", FLAG_STRING, &db, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, sets, 0, ARRAY_SIZE(sets), &nsets },
		{ "--format", FLAG_STRING, &format, 0, 0, NULL },
		{ "--shard", FLAG_STRING, &shard, 0, 0, NULL },
		{ "--dry-run", FLAG_BOOL, &dry_run, 0, 0, NULL },
		{ "--help", FLAG_BOOL, &help, 0, 0, NULL },
		{ "-h", FLAG_BOOL, &help, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	/* The global options stand anywhere before a command with arguments
	 * of its own, and anywhere at all for the others. */
	int end = argc;
	for (int i = 1; i < argc; i++) {
		const struct flag *f = flags_find(flags, argv[i]);
		if (f) {
			i += f->kind != FLAG_BOOL && !strchr(argv[i], '=');
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			continue; /* flags_parse says it is unknown */
		for (size_t k = 0; k < ARRAY_SIZE(own_args) && end == argc; k++)
			if (!strcmp(argv[i], own_args[k].name))
				end = i;
		break;
	}
	if (flags_parse(NULL, flags, end - 1, argv + 1, pos, (int)ARRAY_SIZE(pos), &npos) < 0)
		return 2;
	if (!*db) {
		rb_error("--db: an empty path (a database file, such as results/rmapbench.db)");
		return 2;
	}
	if (help) {
		usage(stdout);
		return 0;
	}
	if (end < argc) {
		if (nsets) {
			rb_error("--set before %s: give it after the command", argv[end]);
			return 2;
		}
		for (size_t k = 0; k < ARRAY_SIZE(own_args); k++)
			if (!strcmp(argv[end], own_args[k].name))
				return own_args[k].fn(argc - end - 1, argv + end + 1, db);
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
		if (config_load_set(&cfg, pos[1], sets, nsets, err, sizeof(err)) < 0 ||
		    (shard && suite_parse_shard(&cfg, shard, err, sizeof(err)) < 0)) {
			rb_error("%s", err);
			config_free(&cfg);
			return 2;
		}
		cfg.dry_run = dry_run;
		int rc = cmd_run(&cfg, db, NULL);
		config_free(&cfg);
		return rc;
	}
	if (nsets || shard || dry_run) {
		rb_error("%s applies to 'run' only", nsets ? "--set" : shard ? "--shard" : "--dry-run");
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
		for (int i = 0; external_workloads[i]; i++)
			printf("%-15s %s\n", external_workloads[i]->name, external_workloads[i]->summary);
		return 0;
	}
	if (!strcmp(cmd, "targets") && npos == 1) {
		for (int i = 0; targets[i]; i++)
			printf("%-15s %s\n", targets[i]->name, targets[i]->summary);
		return 0;
	}
	if (!strcmp(cmd, "runs") || !strcmp(cmd, "show") || !strcmp(cmd, "report") || !strcmp(cmd, "export") ||
	    !strcmp(cmd, "workloads") || !strcmp(cmd, "targets")) {
		rb_error("%s: wrong number of arguments (rmapbench --help)", cmd);
		return 2;
	}
	rb_error("unknown command '%s' (rmapbench --help)", cmd);
	return 2;
}
