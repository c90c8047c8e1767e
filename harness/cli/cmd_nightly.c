/* `rmapbench nightly`: the suite (configs/nightly.conf unless --config)
 * and the parts it asks for: its vm part (vm_kernels, vm_users), the
 * engine's walkcost of `variant` (engine_children) and the engine
 * benchmarks of `variant` (bench_repetitions); each recorded as a nightly
 * run, each compared with its baseline: the pinned one (baseline set), else
 * the last nightly of the same suite on a machine of the same fingerprint
 * that ended done and did not regress (the same kernel for vm). With no
 * baseline yet it records and says so.
 * Exit status: 0 no regression, 1 a regression (a failed run where the
 * baseline's was done counts as one), 2 usage, config or infrastructure. */
#include "bench_run.h"
#include "cmd_engine.h"
#include "commands.h"
#include "flags.h"
#include "query.h"
#include "record.h"
#include "report.h"
#include "suite.h"
#include "util.h"
#include "verdict.h"
#include "verdicts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_NIGHTLY "configs/nightly.conf"
#define MAX_SETS 64
#define MAX_PARTS 8 /* the suite, 4 vm kernels, walkcost, benchmarks */

struct part {
	int64_t run;
	char suite[96], fingerprint[320], variant[64], status[16], target[16];
};

static int run_facts(void *arg, const struct db_run *r)
{
	struct part *p = arg;
	snprintf(p->suite, sizeof(p->suite), "%s", r->config_name ? r->config_name : "");
	snprintf(p->fingerprint, sizeof(p->fingerprint), "%s", r->fingerprint ? r->fingerprint : "");
	snprintf(p->variant, sizeof(p->variant), "%s", r->variant ? r->variant : "");
	snprintf(p->status, sizeof(p->status), "%s", r->status ? r->status : "");
	snprintf(p->target, sizeof(p->target), "%s", r->target ? r->target : "");
	return 0;
}

/* One part against its baseline: its verdicts into c; 1 a regression,
 * 0 none, 2 an error (said). -1: no baseline yet (said, and in c). */
static int judge(struct db *db, struct part *p, const char *explicit, struct side *a, struct side *b,
		 struct comparison *c)
{
	int64_t base = 0;
	int pinned = 0;
	if (db_run_get(db, p->run, run_facts, p) != 1) {
		rb_error("nightly: run %lld is not in %s", (long long)p->run, db->path);
		return 2;
	}
	if (explicit) {
		struct part bp = { 0 };
		if (db_run_resolve(db, explicit, &base) != 1) {
			rb_error("nightly: --baseline %s: no such run in %s", explicit, db->path);
			return 2;
		}
		bp.run = base;
		db_run_get(db, base, run_facts, &bp);
		if (strcmp(bp.suite, p->suite)) {
			rb_error("nightly: --baseline %s is a run of suite '%s', not '%s'", explicit, bp.suite, p->suite);
			return 2;
		}
	} else {
		/* a vm run's baseline booted the same kernel; an engine run's
		 * design is what the comparison is about, so any will do */
		int found = db_baseline_find(db, p->suite, p->fingerprint,
					     !strcmp(p->target, "vm") ? p->variant : NULL, p->run, &base, &pinned);
		if (found < 0) {
			rb_error("nightly: %s: %s", db->path, db_errmsg(db));
			return 2;
		}
		if (!found) {
			snprintf(c->unjudged, sizeof(c->unjudged),
				 "no baseline yet on this machine: run %lld is the first (./run.sh baseline set %lld pins "
				 "one)",
				 (long long)p->run, (long long)p->run);
			snprintf(b->label, sizeof(b->label), "%s run %lld (tonight)", p->suite, (long long)p->run);
			printf("nightly %s: %s\n", p->suite, c->unjudged);
			return -1;
		}
	}
	*a = (struct side){ .db = db, .runs = { base }, .nruns = 1 };
	*b = (struct side){ .db = db, .runs = { p->run }, .nruns = 1 };
	snprintf(a->label, sizeof(a->label), "%s run %lld (%s)", p->suite, (long long)base,
		 explicit ? "--baseline" : pinned ? "pinned baseline" : "last nightly");
	snprintf(b->label, sizeof(b->label), "%s run %lld (tonight)", p->suite, (long long)p->run);
	if (compare_sides(a, b, c) < 0)
		return 2;
	printf("\nnightly %s\n", p->suite);
	verdicts_print_brief(c, a, b); /* every row: the report, --junit, --markdown */
	struct part bp = { .run = base };
	db_run_get(db, base, run_facts, &bp);
	if (strcmp(p->status, "done") && !strcmp(bp.status, "done")) {
		printf("REGRESSION: run %lld ended %s where its baseline, run %lld, was done\n", (long long)p->run,
		       p->status, (long long)base);
		return 1;
	}
	return c->counts[V_REGRESSION] ? 1 : 0;
}

/* The vm part on kernel k: the suite's workloads (or vm_workloads) at
 * vm_users in a guest, as a suite of its own (NAME-vm, judged against the
 * same kernel's): the suite's config, changed in those fields. */
static int vm_part(const struct config *cfg, int k, const char *db_path, int64_t *run)
{
	struct config v;
	char users[200] = "";
	config_copy(&v, cfg);
	snprintf(v.target, sizeof(v.target), "vm");
	snprintf(v.kernel, sizeof(v.kernel), "%s", cfg->vm_kernels[k]);
	snprintf(v.name, sizeof(v.name), "%s-vm", cfg->name);
	snprintf(v.tag, sizeof(v.tag), "nightly");
	for (int i = 0; i < cfg->n_vm_users; i++) {
		v.users[i] = cfg->vm_users[i];
		snprintf(users + strlen(users), sizeof(users) - strlen(users), " %ld", cfg->vm_users[i]);
	}
	if (cfg->n_vm_users)
		v.n_users = cfg->n_vm_users;
	for (int i = 0; i < cfg->n_vm_workloads; i++)
		snprintf(v.workloads[i], sizeof(v.workloads[i]), "%s", cfg->vm_workloads[i]);
	if (cfg->n_vm_workloads)
		v.n_workloads = cfg->n_vm_workloads;
	config_note(&v, "# the nightly's vm part: target = vm, kernel = %s, users =%s, name = %s", v.kernel, users,
		    v.name);
	int rc = cmd_run(&v, db_path, run);
	config_free(&v);
	return rc;
}

/* The parts after the suite: its vm part (vm_kernels), the engine's
 * walkcost (engine_children) and the engine benchmarks (bench_repetitions),
 * each a run of its own into parts; with cfg->dry_run, their plan. 0, or
 * the nightly's exit status when one could not run. */
static int other_parts(const struct config *cfg, const char *db_path, struct part *parts, int *nparts)
{
	bool qemu = rb_have_program("qemu-system-x86_64");
	for (int k = 0; k < cfg->n_vm_kernels; k++) {
		if (!qemu) { /* "where the machine can" */
			printf("nightly: the vm part on %s is skipped: qemu-system-x86_64 is not installed (package "
			       "qemu-system-x86)\n",
			       cfg->vm_kernels[k]);
			continue;
		}
		int64_t run = 0;
		int rc = vm_part(cfg, k, db_path, &run);
		if (cfg->dry_run)
			continue;
		if (rc == 130)
			return 130;
		if (!run) {
			rb_error("nightly: the vm part on kernel %s did not start", cfg->vm_kernels[k]);
			return 2;
		}
		parts[(*nparts)++].run = run;
	}
	if (cfg->n_engine_children && cfg->dry_run) {
		printf("# engine part: walkcost of %s at %d values of N, %ld pages each\n", cfg->variant,
		       cfg->n_engine_children, cfg->engine_pages);
	} else if (cfg->n_engine_children) {
		struct eargs a = { 0 };
		char name[96];
		snprintf(name, sizeof(name), "%s-walkcost", cfg->name[0] ? cfg->name : "nightly");
		a.variant = cfg->variant;
		for (int i = 0; i < cfg->n_engine_children; i++)
			a.children[i] = (unsigned long)cfg->engine_children[i];
		a.nchildren = cfg->n_engine_children;
		a.pages = (unsigned long)cfg->engine_pages;
		a.config_name = name;
		a.tag = "nightly";
		snprintf(a.cmdline, sizeof(a.cmdline), "walkcost --variant %s (%s)", cfg->variant, name);
		printf("nightly: walkcost of %s at %d values of N\n", cfg->variant, cfg->n_engine_children);
		fflush(stdout);
		if (engine_walkcost(db_path, &a) != 0 || !a.last_run) {
			rb_error("nightly: the engine part (walkcost of %s) failed", cfg->variant);
			return 2;
		}
		parts[(*nparts)++].run = a.last_run;
	}
	if (cfg->bench_repetitions && cfg->dry_run) {
		printf("# engine benchmarks: those of %s, %d repetitions of at least %g s\n", cfg->variant,
		       cfg->bench_repetitions, cfg->bench_min_time_s);
	} else if (cfg->bench_repetitions) {
		char name[96];
		snprintf(name, sizeof(name), "%s-bench", cfg->name[0] ? cfg->name : "nightly");
		printf("nightly: the engine benchmarks of %s, %d repetitions\n", cfg->variant, cfg->bench_repetitions);
		fflush(stdout);
		struct bench_args b = { .variant = cfg->variant,
					.repetitions = (unsigned long)cfg->bench_repetitions,
					.min_time_s = cfg->bench_min_time_s,
					.config_name = name,
					.tag = "nightly",
					.quiet = true };
		if (bench_record(db_path, &b) != 0 || !b.run) {
			rb_error("nightly: the engine benchmarks of %s failed", cfg->variant);
			return 2;
		}
		parts[(*nparts)++].run = b.run;
	}
	return 0;
}

/* The positive control: reference_config in a guest of the good kernel
 * and of the known-bad one, compared. Its regressions are expected; it
 * fails the night (2) when it shows none of reference_metric, for then the
 * harness is blind to the one regression it was built to see. 0, or 2
 * when it could not run or saw nothing (said); c is filled when it ran. */
static int reference_part(const struct config *cfg, const char *db_path, struct db *db, struct side *a,
			  struct side *b, struct comparison *c)
{
	const char *labels[2] = { cfg->reference_kernels[0], cfg->reference_kernels[1] };
	if (!rb_have_program("qemu-system-x86_64")) {
		rb_error("nightly: the reference part (%s against %s) cannot run: qemu-system-x86_64 is not installed "
			 "(package qemu-system-x86)",
			 labels[1], labels[0]);
		return 2;
	}
	int64_t runs[2];
	printf("nightly: the reference, %s against %s (%s), must regress on %s\n", labels[1], labels[0],
	       cfg->reference_config, cfg->reference_metric);
	fflush(stdout);
	int rc = kernels_run_pair(cfg->reference_config, NULL, 0, labels, "nightly", db_path, runs);
	if (!runs[0] || !runs[1] || rc) {
		if (rc != 130)
			rb_error("nightly: the reference part (%s against %s) did not run to its end", labels[1],
				 labels[0]);
		return rc == 130 ? 130 : 2;
	}
	*a = (struct side){ .db = db, .runs = { runs[0] }, .nruns = 1 };
	*b = (struct side){ .db = db, .runs = { runs[1] }, .nruns = 1 };
	snprintf(a->label, sizeof(a->label), "reference %s run %lld (good)", labels[0], (long long)runs[0]);
	snprintf(b->label, sizeof(b->label), "reference %s run %lld (known bad)", labels[1], (long long)runs[1]);
	if (compare_sides(a, b, c) < 0)
		return 2;
	snprintf(c->expect, sizeof(c->expect), "%s", cfg->reference_metric);
	printf("\nnightly reference (positive control: its regressions are expected)\n");
	verdicts_print_brief(c, a, b);
	if (!comparison_regressed_on(c, c->expect)) {
		printf("nightly: the harness did not see the known regression: %s against %s shows no regression of "
		       "%s\n",
		       labels[1], labels[0], c->expect);
		return 2;
	}
	return 0;
}

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
	const char *config = DEFAULT_NIGHTLY, *baseline = NULL, *junit = NULL, *markdown = NULL, *sets[MAX_SETS], *pos[1],
		   *shard = NULL;
	bool dry_run = false, help = false;
	int nsets = 0, npos;
	const struct flag flags[] = {
		{ "--config", FLAG_STRING, &config, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, sets, 0, ARRAY_SIZE(sets), &nsets },
		{ "--baseline", FLAG_STRING, &baseline, 0, 0, NULL },
		{ "--junit", FLAG_STRING, &junit, 0, 0, NULL },
		{ "--markdown", FLAG_STRING, &markdown, 0, 0, NULL },
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
	char err[600];
	if (config_load_set(&cfg, config, sets, nsets, err, sizeof(err)) < 0 ||
	    (shard && suite_parse_shard(&cfg, shard, err, sizeof(err)) < 0)) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	snprintf(cfg.tag, sizeof(cfg.tag), "nightly");
	if (cfg.n_vm_kernels && !cfg.n_vm_users) {
		rb_error("%s: vm_kernels needs vm_users (the users of the vm part)", cfg.path);
		config_free(&cfg);
		return 2;
	}
	if (cfg.n_reference_kernels && access(cfg.reference_config, R_OK) < 0) {
		rb_error("%s: reference_config %s: %s", cfg.path, cfg.reference_config, strerror(errno));
		config_free(&cfg);
		return 2;
	}
	if (dry_run) {
		cfg.dry_run = 1;
		cmd_run(&cfg, db_path, NULL);
		int n = 0;
		other_parts(&cfg, db_path, NULL, &n);
		if (cfg.n_reference_kernels)
			printf("# reference: %s in %s and %s; must regress on %s\n", cfg.reference_config,
			       cfg.reference_kernels[0], cfg.reference_kernels[1], cfg.reference_metric);
		config_free(&cfg);
		return 0;
	}
	if (baseline) { /* said before a night's work, not after it */
		struct db db;
		int64_t id;
		struct part bp = { 0 };
		if (db_open_readonly(db_path, &db, err, sizeof(err)) < 0) {
			rb_error("nightly: --baseline %s: %s", baseline, err);
			config_free(&cfg);
			return 2;
		}
		int found = db_run_resolve(&db, baseline, &id);
		if (found == 1)
			db_run_get(&db, id, run_facts, &bp);
		db_close(&db);
		if (found != 1 || strcmp(bp.suite, cfg.name)) {
			if (found != 1)
				rb_error("nightly: --baseline %s: no such run in %s", baseline, db_path);
			else
				rb_error("nightly: --baseline %s is a run of suite '%s', not '%s'", baseline, bp.suite, cfg.name);
			config_free(&cfg);
			return 2;
		}
	}
	struct part parts[MAX_PARTS];
	int nparts = 0, rc = 0;
	memset(parts, 0, sizeof(parts));
	int64_t run = 0;
	int run_rc = cmd_run(&cfg, db_path, &run);
	if (!run) { /* it never started: a missing kernel, package or binary */
		config_free(&cfg);
		return 2;
	}
	if (run_rc == 130) {
		config_free(&cfg);
		return 130;
	}
	parts[nparts++].run = run;
	int part_rc = other_parts(&cfg, db_path, parts, &nparts);
	if (part_rc) {
		config_free(&cfg);
		return part_rc;
	}

	struct db db;
	if (db_open_said(db_path, &db) < 0) {
		config_free(&cfg);
		return 2;
	}
	/* every part reaches every output: a first night's as not judged */
	struct side sa[MAX_PARTS + 1], sb[MAX_PARTS + 1];
	struct comparison cmp[MAX_PARTS + 1];
	int shown = 0;
	memset(cmp, 0, sizeof(cmp));
	memset(sa, 0, sizeof(sa));
	memset(sb, 0, sizeof(sb));
	for (int i = 0; i < nparts; i++) {
		int r = judge(&db, &parts[i], i == 0 ? baseline : NULL, &sa[shown], &sb[shown], &cmp[shown]);
		if (r != 2) /* a regressed night is never a later night's baseline */
			db_run_set_verdict(&db, parts[i].run, r == 1 ? "regressed" : "clean");
		if (r == 2) {
			comparison_free(&cmp[shown]);
			memset(&cmp[shown], 0, sizeof(cmp[shown]));
			rc = 2;
			continue;
		}
		shown++;
		if (r > 0)
			rc = rc == 2 ? 2 : r > rc ? r : rc;
	}
	if (cfg.n_reference_kernels) {
		int r = reference_part(&cfg, db_path, &db, &sa[shown], &sb[shown], &cmp[shown]);
		if (cmp[shown].n || cmp[shown].expect[0])
			shown++;
		if (r == 130) {
			config_free(&cfg);
			for (int i = 0; i < shown; i++)
				comparison_free(&cmp[i]);
			db_close(&db);
			return 130;
		}
		if (r)
			rc = 2;
	}
	config_free(&cfg);
	if (junit && verdicts_junit_n(junit, shown, cmp, sa, sb) < 0) {
		rb_error("nightly: --junit %s: cannot write it", junit);
		rc = 2;
	}
	if (markdown && verdicts_markdown_n(markdown, shown, cmp, sa, sb) < 0) {
		rb_error("nightly: --markdown %s: cannot write it", markdown);
		rc = 2;
	}
	/* the suite's report, remade with the night's verdicts on top */
	char dir[4096], name[32], report[4200] = "";
	snprintf(name, sizeof(name), "run-%lld", (long long)parts[0].run);
	if (results_dir(db_path, name, dir, sizeof(dir)) == 0 &&
	    report_generate_verdicts(&db, parts[0].run, dir, report, sizeof(report), cmp, sa, sb, shown) == 0)
		printf("report: %s\n", rb_path_shown(report, dir, sizeof(dir)));
	/* the control's regressions are expected: said apart */
	int regressions = 0, judged = 0, control = -1;
	for (int i = 0; i < shown; i++) {
		if (cmp[i].expect[0])
			control = comparison_regressed_on(&cmp[i], cmp[i].expect);
		else if (!cmp[i].unjudged[0])
			regressions += cmp[i].counts[V_REGRESSION], judged++;
		comparison_free(&cmp[i]);
	}
	printf("\nnightly: %s (%d regressions over %d comparisons%s)\n",
	       rc == 0 ? "no regression" : rc == 1 ? "REGRESSED" : "could not judge", regressions, judged,
	       control < 0 ? "" : control ? "; the reference saw its regression" : "; the reference saw nothing");
	db_close(&db);
	return rc;
}

/* `baseline set RUN | show | clear [--config FILE]`: the pinned baseline of
 * a suite on this machine. */
int cmd_baseline(int argc, char **argv, const char *db_path)
{
	const char *config = DEFAULT_NIGHTLY, *pos[2];
	int npos;
	const struct flag flags[] = {
		{ "--config", FLAG_STRING, &config, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("baseline", flags, argc, argv, pos, 2, &npos) < 0)
		return 2;
	if (!npos || (!strcmp(pos[0], "set") ? npos != 2 : npos != 1) ||
	    (strcmp(pos[0], "set") && strcmp(pos[0], "show") && strcmp(pos[0], "clear"))) {
		rb_error("baseline: set RUN | show | clear [--config FILE]");
		return 2;
	}
	struct config cfg;
	char err[600], fp[320];
	if (config_load_set(&cfg, config, NULL, 0, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	char suite[96];
	snprintf(suite, sizeof(suite), "%s", cfg.name);
	config_free(&cfg);
	machine_fingerprint(fp, sizeof(fp));
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 2;
	int rc = 0;
	if (!strcmp(pos[0], "set")) {
		int64_t id;
		struct part p = { 0 };
		if (db_run_resolve(&db, pos[1], &id) != 1) {
			rb_error("baseline set: no run '%s' in %s", pos[1], db_path);
			rc = 2;
		} else if (p.run = id, db_run_get(&db, id, run_facts, &p), strcmp(p.suite, suite)) {
			rb_error("baseline set: run %lld is of suite '%s', not '%s' (--config)", (long long)id, p.suite, suite);
			rc = 2;
		} else if (db_baseline_set(&db, suite, fp, id) < 0) {
			rb_error("baseline set: %s: %s", db_path, db_errmsg(&db));
			rc = 2;
		} else {
			printf("baseline of %s on this machine: run %lld\n", suite, (long long)id);
		}
	} else if (!strcmp(pos[0], "show")) {
		int64_t id;
		int pinned = 0;
		int found = db_baseline_find(&db, suite, fp, NULL, INT64_MAX, &id, &pinned);
		if (found > 0)
			printf("baseline of %s on this machine: run %lld (%s)\n", suite, (long long)id,
			       pinned ? "pinned" : "the last nightly that ended done");
		else
			printf("baseline of %s on this machine: none yet\n", suite);
	} else {
		int cleared = db_baseline_clear(&db, suite, fp);
		printf("baseline of %s on this machine: %s\n", suite,
		       cleared > 0 ? "unpinned (the last nightly that ended done is used)" : "none was pinned");
	}
	db_close(&db);
	return rc;
}
