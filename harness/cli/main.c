/* rmapbench: the command line. Global options may stand anywhere. */
#include "commands.h"
#include "flags.h"
#include "usage.h"
#include "util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	{ "trend", cmd_trend },
	{ "db", cmd_db },
	{ "calibrate-walk", cmd_calibrate_walk },
	{ "paper", cmd_paper },
};

/* The commands with no arguments of their own besides RUN (and --format):
 * how many words each takes, the name first. */
static int positional(const char *db, const char *const *pos, int npos, const char *format)
{
	const char *cmd = pos[0];
	static const struct {
		const char *name;
		int npos;
	} fixed[] = { { "runs", 1 }, { "show", 2 }, { "report", 2 }, { "export", 2 }, { "workloads", 1 }, { "targets", 1 } };
	size_t k = 0;
	while (k < ARRAY_SIZE(fixed) && strcmp(cmd, fixed[k].name))
		k++;
	if (k == ARRAY_SIZE(fixed)) {
		rb_error("unknown command '%s' (rmapbench --help)", cmd);
		return 2;
	}
	if (npos != fixed[k].npos) {
		rb_error("%s: wrong number of arguments (rmapbench --help)", cmd);
		return 2;
	}
	if (!strcmp(cmd, "export") && !format) {
		rb_error("export: --format csv|json is required");
		return 2;
	}
	switch (k) {
	case 0: return cmd_runs(db);
	case 1: return cmd_show(db, pos[1]);
	case 2: return cmd_report(db, pos[1]);
	case 3: return cmd_export(db, pos[1], format);
	case 4: return cmd_workloads();
	default: return cmd_targets();
	}
}

/* The first word that names a command with arguments of its own: the
 * global options stand anywhere before it, and anywhere at all for the
 * others. argc when there is none. */
static int own_args_at(int argc, char **argv, const struct flag *flags)
{
	for (int i = 1; i < argc; i++) {
		const struct flag *f = flags_find(flags, argv[i]);
		if (f) {
			i += f->kind != FLAG_BOOL && !strchr(argv[i], '=');
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			continue; /* flags_parse says it is unknown */
		for (size_t k = 0; k < ARRAY_SIZE(own_args); k++)
			if (!strcmp(argv[i], own_args[k].name))
				return i;
		break;
	}
	return argc;
}

int main(int argc, char **argv)
{
	const char *db = getenv("RMAPBENCH_DB");
	const char *sets[64], *pos[8], *format = NULL, *shard = NULL;
	bool dry_run = false, help = false;
	int nsets = 0, npos = 0;
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
	int end = own_args_at(argc, argv, flags);
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
	if (!strcmp(pos[0], "run")) {
		if (npos == 2)
			return cmd_run(pos[1], sets, nsets, shard, dry_run, db);
		rb_error("run: expected one CONFIG file");
		return 2;
	}
	if (nsets || shard || dry_run) {
		rb_error("%s applies to 'run' only", nsets ? "--set" : shard ? "--shard" : "--dry-run");
		return 2;
	}
	return positional(db, pos, npos, format);
}
