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
	fputs("usage: rmapbench paper [--config FILE] [--set KEY=VALUE]... [--designs D,D] [--json]\n"
	      "  runs the 2010 profile (default configs/paper-2010.conf) on the engine target for legacy,\n"
	      "  avc and modern; prints each crossover with sys%, iowait% and the anon_vma lock's wait\n"
	      "  share there, and draws the figure. Measures this kernel's walk cost first if needed.\n"
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

int cmd_paper(int argc, char **argv, const char *db_path)
{
	const char *cfgpath = "configs/paper-2010.conf";
	bool json = false, help = false;
	const char *sets[16], *only = NULL;
	int nsets = 0;
	const struct flag flags[] = {
		{ "--designs", FLAG_STRING, &only, 0, 0, NULL },
		{ "--config", FLAG_STRING, &cfgpath, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, sets, 0, 15, &nsets },
		{ "--json", FLAG_BOOL, &json, 0, 0, NULL },
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
	config_free(&cfg);
	struct paper_row rows[NDESIGNS];
	memset(rows, 0, sizeof(rows));
	for (int d = 0; d < nd; d++) {
		char set[48];
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
	int64_t runs[NDESIGNS];
	double crossed[NDESIGNS];
	const char *workloads[NDESIGNS];
	long nearest[NDESIGNS];
	for (int d = 0; d < nd; d++) {
		struct paper_row *r = &rows[d];
		runs[d] = r->run;
		r->found = crossover_find(&db, r->run, &r->x, 1) > 0;
		r->users = r->found ? crossover_nearest_point(&r->x) : 0;
		for (size_t s = 0; s < NSHARES; s++)
			r->share[s] = r->found ? mean_at(&db, r->run, r->x.workload, r->users, shares[s]) : 0.0 / 0.0;
		crossed[d] = r->found && r->x.reached && !r->x.from_first ? r->x.at_users : 0;
		workloads[d] = r->found ? r->x.workload : "";
		nearest[d] = r->users;
	}
	char dir[PATH_MAX], fig[PATH_MAX + 16], name[64];
	snprintf(name, sizeof(name), "paper-%lld-%lld", (long long)runs[0], (long long)runs[nd - 1]);
	char title[300];
	snprintf(title, sizeof(title), "The 2010 AIM7 crossover on the engine (%s%s)", cfgpath,
		 nsets ? ", changed by --set" : "");
	int have_fig = results_dir(db_path, name, dir, sizeof(dir)) == 0 &&
		       report_paper(&db, runs, designs, crossed, workloads, nearest, nd, title, dir, fig, sizeof(fig)) == 0;
	db_close(&db);
	if (json) {
		print_json(rows, designs, nd);
	} else {
		printf("%-8s %6s %12s %12s %8s %9s %10s %10s %10s\n", "design", "run", "crossover", "nearest", "sys%",
		       "iowait%", "lockwait%", "sys%/1s", "iowait%/1s");
		for (int d = 0; d < nd; d++) {
			const struct paper_row *r = &rows[d];
			char cx[64];
			if (!r->found)
				snprintf(cx, sizeof(cx), "no data");
			else if (crossed[d] > 0)
				snprintf(cx, sizeof(cx), "%.0f", crossed[d]);
			else
				snprintf(cx, sizeof(cx), r->x.reached ? "below first" : "not reached");
			printf("%-8s %6lld %12s %12ld %8.1f %9.1f %10.1f %10.1f %10.1f\n", designs[d], (long long)r->run, cx,
			       r->users, r->share[0], r->share[1], r->share[2], r->share[3], r->share[4]);
		}
		printf("sys%%/1s, iowait%%/1s: the median second of that point, as vmstat 1 would show it\n");
		printf("2010: 2.6.33 crossed near 9,700 users, the anon_vma_chain near 29,700\n");
		if (nd > 1 && !strcmp(designs[0], "legacy") && !strcmp(designs[1], "avc") && crossed[0] > 0 && crossed[1] > 0)
			printf("ratio legacy/avc %.2f (2010: 0.33)\n", crossed[0] / crossed[1]);
	}
	if (have_fig)
		fprintf(json ? stderr : stdout, "figure: %s\n", fig);
	else
		rb_warn("paper: the figure could not be made (gnuplot?)");
	return 0;
}
