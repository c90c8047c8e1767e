/* `rmapbench paper`: the 2010 crossover on the engine target. The profile
 * (configs/paper-2010.conf) runs once per design, each a run of its own
 * whose users sweep stops after its crossing and bisects around it; then
 * each design's crossover (AIM7's rule, harness/compare/crossover.c) with
 * its system, iowait and lock-wait shares at the measured point nearest
 * it (the point's averages and its median second's), and the figure
 * (plots/paper.gp). */
#include "commands.h"
#include "crossover.h"
#include "escape.h"
#include "flags.h"
#include "query.h"
#include "record.h"
#include "report.h"
#include "stats.h"
#include "suite.h"
#include "util.h"
#include "walk_calib.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define NDESIGNS 3
static const char *const all_designs[NDESIGNS] = { "legacy", "avc", "modern" };
/* the point's averages, then the median second's (a collapse and its IO
 * tail averaged in one point hide both) */
static const char *const shares[] = { "sys_pct", "iowait_pct", "lock_wait_pct", "sys_pct_1s_median",
				      "iowait_pct_1s_median" };
#define NSHARES (sizeof(shares) / sizeof(shares[0]))

struct paper_row {
	int64_t run;
	struct crossover x;
	int found;
	long users;               /* the measured point nearest the crossing */
	double share[NSHARES];    /* shares[] there; NaN when not measured */
};

static int usage(const char *msg)
{
	if (msg)
		rb_error("%s", msg);
	fputs("usage: rmapbench paper [--config FILE] [--set KEY=VALUE]... [--designs D,D] [--json] [--calibrate]\n"
	      "  runs the 2010 profile (default configs/paper-2010.conf) on the engine target for legacy,\n"
	      "  avc and modern; prints each crossover with sys%, iowait% and the anon_vma lock's wait\n"
	      "  share there, and draws the figure. Walks cost what the profile's walk_calibration says\n"
	      "  (a reference shipped with rmapbench, so the answer is the same on any machine).\n"
	      "  --calibrate measures this kernel's walk cost first (calibrate-walk, as root; exit 2 when\n"
	      "  it measured noise), runs the profile on it, runs it again on the\n"
	      "  reference, and prints how far this host's walk cost moves each crossing.\n"
	      "  --set changes the profile for every design (the README's sensitivity table).\n",
	      stderr);
	return 2;
}

static double mean_at(struct db *db, int64_t run, const char *workload, long users, const char *metric)
{
	double v[64];
	int n = db_point_values(db, run, workload, users, metric, v, 64);
	return n > 0 ? stats_mean(v, n > 64 ? 64 : n) : 0.0 / 0.0;
}

static void print_json(const struct paper_row *r, const char *const *designs, int nd)
{
	printf("{");
	for (int d = 0; d < nd; d++) {
		printf("%s", d ? ", " : "");
		json_write_string(stdout, designs[d]);
		printf(": {\"run\": %lld, \"crossover_users\": ", (long long)r[d].run);
		if (r[d].found && r[d].x.reached && !r[d].x.from_first)
			printf("%.0f", r[d].x.at_users);
		else
			printf("null");
		printf(", \"nearest_point_users\": %ld", r[d].users);
		for (size_t s = 0; s < NSHARES; s++) {
			printf(", ");
			json_write_string(stdout, shares[s]);
			if (r[d].share[s] == r[d].share[s])
				printf(": %.3f", r[d].share[s]);
			else
				printf(": null");
		}
		printf("}");
	}
	printf("}\n");
}

/* Each design's run of the profile with sets (and variant last), and its
 * crossover and shares into rows. 0, or the exit status. */
static int run_designs(const char *cfgpath, const char **sets, int nsets, const char *const *designs, int nd,
		       const char *db_path, struct paper_row *rows)
{
	char err[700];
	memset(rows, 0, sizeof(*rows) * (size_t)nd);
	for (int d = 0; d < nd; d++) {
		char set[48];
		struct config cfg;
		snprintf(set, sizeof(set), "variant=%s", designs[d]);
		sets[nsets] = set; /* the design last: no --set overrides it */
		if (config_load_set(&cfg, cfgpath, sets, nsets + 1, err, sizeof(err)) < 0) {
			rb_error("%s", err);
			config_free(&cfg);
			return 2;
		}
		fprintf(stderr, "paper: %s (%d of %d)\n", designs[d], d + 1, nd);
		struct suite_result res;
		int rc = run_suite(&cfg, db_path, &res);
		config_free(&cfg);
		rows[d].run = res.run;
		if (rc != 0) {
			rb_error("paper: the %s run %s: %s", designs[d], res.run ? "failed" : "did not start",
				 res.note[0] ? res.note : "see above");
			return rc == 130 ? 130 : 1;
		}
	}
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 1;
	for (int d = 0; d < nd; d++) {
		struct paper_row *r = &rows[d];
		r->found = crossover_find(&db, r->run, &r->x, 1) > 0;
		r->users = r->found ? crossover_nearest_point(&r->x) : 0;
		for (size_t s = 0; s < NSHARES; s++)
			r->share[s] = r->found ? mean_at(&db, r->run, r->x.workload, r->users, shares[s]) : 0.0 / 0.0;
	}
	db_close(&db);
	return 0;
}

static double crossed_at(const struct paper_row *r)
{
	return r->found && r->x.reached && !r->x.from_first ? r->x.at_users : 0;
}

static void print_table(const struct paper_row *rows, const char *const *designs, int nd)
{
	printf("%-8s %6s %12s %12s %8s %9s %10s %10s %10s\n", "design", "run", "crossover", "nearest", "sys%", "iowait%",
	       "lockwait%", "sys%/1s", "iowait%/1s");
	for (int d = 0; d < nd; d++) {
		const struct paper_row *r = &rows[d];
		char cx[64];
		if (!r->found)
			snprintf(cx, sizeof(cx), "no data");
		else if (crossed_at(r) > 0)
			snprintf(cx, sizeof(cx), "%.0f", crossed_at(r));
		else
			snprintf(cx, sizeof(cx), r->x.reached ? "below first" : "not reached");
		printf("%-8s %6lld %12s %12ld %8.1f %9.1f %10.1f %10.1f %10.1f\n", designs[d], (long long)r->run, cx,
		       r->users, r->share[0], r->share[1], r->share[2], r->share[3], r->share[4]);
	}
	printf("sys%%/1s, iowait%%/1s: the median second of that point, as vmstat 1 would show it\n");
	printf("2010: 2.6.33 crossed near 9,700 users, the anon_vma_chain near 29,700\n");
	if (nd > 1 && !strcmp(designs[0], "legacy") && !strcmp(designs[1], "avc") && crossed_at(&rows[0]) > 0 &&
	    crossed_at(&rows[1]) > 0)
		printf("ratio legacy/avc %.2f (2010: 0.33)\n", crossed_at(&rows[0]) / crossed_at(&rows[1]));
}

/* --calibrate: this host's crossings beside the reference's, the same
 * profile, seed and revision: what differs is the walk's cost alone. */
static void print_shift(const struct paper_row *host, const struct paper_row *ref, const char *const *designs, int nd,
			const char *reference)
{
	printf("\nthis host's walk calibration against the reference (%s):\n", reference);
	printf("%-8s %12s %12s %9s\n", "design", "reference", "this host", "change");
	for (int d = 0; d < nd; d++) {
		double a = crossed_at(&ref[d]), b = crossed_at(&host[d]);
		char ca[32] = "-", cb[32] = "-", ch[32] = "-";
		if (a > 0)
			snprintf(ca, sizeof(ca), "%.0f", a);
		if (b > 0)
			snprintf(cb, sizeof(cb), "%.0f", b);
		if (a > 0 && b > 0)
			snprintf(ch, sizeof(ch), "%+.1f%%", 100 * (b - a) / a);
		printf("%-8s %12s %12s %9s\n", designs[d], ca, cb, ch);
	}
	printf("the same profile, seed and revision on both: the change is the walk's cost alone\n");
}

int cmd_paper(int argc, char **argv, const char *db_path)
{
	const char *cfgpath = "configs/paper-2010.conf";
	bool json = false, help = false, calibrate = false;
	const char *sets[18], *only = NULL;
	int nsets = 0;
	const struct flag flags[] = {
		{ "--designs", FLAG_STRING, &only, 0, 0, NULL },
		{ "--config", FLAG_STRING, &cfgpath, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, sets, 0, 15, &nsets },
		{ "--json", FLAG_BOOL, &json, 0, 0, NULL },
		{ "--calibrate", FLAG_BOOL, &calibrate, 0, 0, NULL },
		{ "--help", FLAG_BOOL, &help, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	const char *pos[1];
	int npos;
	if (flags_parse("paper", flags, argc, argv, pos, 0, &npos) < 0)
		return usage(NULL);
	if (help) {
		usage(NULL);
		return 0;
	}
	const char *designs[NDESIGNS];
	int nd = 0;
	for (int d = 0; d < NDESIGNS; d++) {
		const char *p = only ? strstr(only, all_designs[d]) : NULL;
		size_t l = strlen(all_designs[d]);
		/* a whole name of the comma list */
		while (p && !((p == only || p[-1] == ',') && (p[l] == ',' || !p[l])))
			p = strstr(p + 1, all_designs[d]);
		if (!only || p)
			designs[nd++] = all_designs[d];
	}
	if (!nd)
		return usage("--designs: none of legacy, avc, modern");
	char err[700];
	struct config cfg;
	if (config_load_set(&cfg, cfgpath, sets, nsets, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	char reference[256];
	snprintf(reference, sizeof(reference), "%s", cfg.walk_calibration[0] ? cfg.walk_calibration : "");
	config_free(&cfg);
	struct paper_row rows[NDESIGNS], ref[NDESIGNS];
	char kept[PATH_MAX], host_set[PATH_MAX + 32];
	if (calibrate) {
		/* this host's calibration first: a noisy one is refused (2) */
		struct walk_calib_plan plan;
		struct walk_calib c;
		walk_calib_default_plan(&plan);
		int kr = walk_calib_keep(db_path, &plan, &c, stderr);
		if (kr < 0)
			return kr == -2 ? 2 : 1;
		if (results_path(db_path, WALK_CALIB_FILE, kept, sizeof(kept)) < 0)
			return 1;
		snprintf(host_set, sizeof(host_set), "walk_calibration=%s", kept);
		sets[nsets] = host_set;
		int rc = run_designs(cfgpath, sets, nsets + 1, designs, nd, db_path, rows);
		if (rc)
			return rc;
		if (reference[0] && (rc = run_designs(cfgpath, sets, nsets, designs, nd, db_path, ref)) != 0)
			return rc;
	} else {
		int rc = run_designs(cfgpath, sets, nsets, designs, nd, db_path, rows);
		if (rc)
			return rc;
	}
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 1;
	int64_t runs[NDESIGNS];
	double crossed[NDESIGNS];
	const char *workloads[NDESIGNS];
	long nearest[NDESIGNS];
	for (int d = 0; d < nd; d++) {
		runs[d] = rows[d].run;
		crossed[d] = crossed_at(&rows[d]);
		workloads[d] = rows[d].found ? rows[d].x.workload : "";
		nearest[d] = rows[d].users;
	}
	char dir[PATH_MAX], fig[PATH_MAX + 16], name[64];
	snprintf(name, sizeof(name), "paper-%lld-%lld", (long long)runs[0], (long long)runs[nd - 1]);
	char title[300];
	snprintf(title, sizeof(title), "The 2010 AIM7 crossover on the engine (%s%s%s)", cfgpath,
		 nsets ? ", changed by --set" : "", calibrate ? ", this host's walk cost" : "");
	int have_fig = results_dir(db_path, name, dir, sizeof(dir)) == 0 &&
		       report_paper(&db, runs, designs, crossed, workloads, nearest, nd, title, dir, fig, sizeof(fig)) == 0;
	db_close(&db);
	if (json) {
		print_json(rows, designs, nd);
	} else {
		print_table(rows, designs, nd);
		if (calibrate && reference[0])
			print_shift(rows, ref, designs, nd, reference);
	}
	if (have_fig)
		fprintf(json ? stderr : stdout, "figure: %s\n", rb_path_shown(fig, dir, sizeof(dir)));
	else
		rb_warn("paper: the figure could not be made (gnuplot?)");
	return 0;
}
