/* `rmapbench nightly`: its flags, its config and its database opened;
 * the night itself is harness/jobs/nightly.c. Exit status: 0 no
 * regression, 1 a regression, 2 usage, config or infrastructure. */
#include "commands.h"
#include "flags.h"
#include "nightly.h"
#include "run_here.h"
#include "suite.h"
#include "util.h"

#include <stdio.h>

#define MAX_SETS 64

static void nightly_usage(void)
{
	fputs("usage: rmapbench nightly [--config FILE] [--set KEY=VALUE]... [--baseline RUN] [--junit F]\n"
	      "                         [--markdown F] [--shard I/N] [--dry-run]\n"
	      "  runs the suite (configs/nightly.conf unless --config) and the parts its config asks for\n"
	      "  (vm_kernels, engine_children, bench_repetitions), each against its baseline, then its\n"
	      "  reference (reference_kernels), a positive control that must regress on reference_metric.\n"
	      "  --junit and --markdown are always written, a first night's parts as not judged.\n"
	      "  exit: 0 no regression, 1 a regression, 2 an error or a reference that saw nothing.\n"
	      "  what a night takes: docs/nightly.md and the records it links.\n",
	      stdout);
}

int cmd_nightly(int argc, char **argv, const char *db_path)
{
	const char *config = NIGHTLY_DEFAULT_CONFIG, *sets[MAX_SETS], *pos[1], *shard = NULL;
	struct nightly_opts o = { 0 };
	bool dry_run = false, help = false;
	int nsets = 0, npos;
	const struct flag flags[] = {
		{ "--config", FLAG_STRING, &config, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, sets, 0, ARRAY_SIZE(sets), &nsets },
		{ "--baseline", FLAG_STRING, &o.baseline, 0, 0, NULL },
		{ "--junit", FLAG_STRING, &o.junit, 0, 0, NULL },
		{ "--markdown", FLAG_STRING, &o.markdown, 0, 0, NULL },
		{ "--shard", FLAG_STRING, &shard, 0, 0, NULL },
		{ "--dry-run", FLAG_BOOL, &dry_run, 0, 0, NULL },
		{ "--help", FLAG_BOOL, &help, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("nightly", flags, argc, argv, pos, 0, &npos) < 0)
		return 2;
	if (help) {
		nightly_usage();
		return 0;
	}
	struct config cfg;
	struct db db = { 0 };
	char err[600];
	int rc = 2;
	if (config_load_set(&cfg, config, sets, nsets, err, sizeof(err)) < 0 ||
	    (shard && suite_parse_shard(&cfg, shard, err, sizeof(err)) < 0)) {
		rb_error("%s", err);
	} else if (dry_run) { /* the plan alone: no database is touched */
		snprintf(cfg.tag, sizeof(cfg.tag), "nightly");
		if (!(rc = nightly_check(&cfg, NULL, NULL)))
			nightly_plan(&cfg);
	} else if (db_open_said(db_path, &db) == 0) {
		snprintf(cfg.tag, sizeof(cfg.tag), "nightly");
		if (!(rc = nightly_check(&cfg, &db, o.baseline)))
			rc = nightly_run(&cfg, &db, &o);
		db_close(&db);
	}
	config_free(&cfg);
	return rc;
}
