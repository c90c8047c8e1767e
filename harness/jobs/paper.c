/* `paper` as a job (paper.h). */
#include "paper.h"
#include "query.h"
#include "run_here.h"
#include "report.h"
#include "stats.h"
#include "suite.h"
#include "util.h"
#include "walk_calib.h"

#include <stdio.h>
#include <string.h>

const char *const paper_designs[PAPER_NDESIGNS] = { "legacy", "avc", "modern" };
const char *const paper_shares[PAPER_NSHARES] = { "sys_pct", "iowait_pct", "lock_wait_pct", "sys_pct_1s_median",
						  "iowait_pct_1s_median" };

static double mean_at(struct db *db, int64_t run, const char *workload, long users, const char *metric);

/* The profile's leaves at the crossing point: each split the sum of its
 * functions' children shares (a stack holds one leaf). */
static void split_at(struct db *db, struct paper_row *r)
{
	static const char *const leaves[PAPER_NSPLIT][3] = {
		[SPLIT_SPIN] = { "_spin_lock" },
		[SPLIT_WALK] = { "page_referenced_one", "try_to_unmap_one" },
		[SPLIT_USER] = { "[user]" },
		[SPLIT_IO] = { "io_schedule" },
		[SPLIT_SLEEP] = { "rwsem_down_read_slowpath", "rwsem_down_write_slowpath" },
	};
	bool any = r->found && mean_at(db, r->run, r->x.workload, r->users, "profile_samples") > 0;
	for (int s = 0; s < PAPER_NSPLIT; s++) {
		r->split[s] = any ? 0 : 0.0 / 0.0;
		for (int k = 0; any && k < 3 && leaves[s][k]; k++) {
			char metric[96];
			snprintf(metric, sizeof(metric), "profile.children.%s", leaves[s][k]);
			double v = mean_at(db, r->run, r->x.workload, r->users, metric);
			r->split[s] += v == v ? v : 0; /* below the rows' cut: 0 */
		}
	}
}

static double mean_at(struct db *db, int64_t run, const char *workload, long users, const char *metric)
{
	double v[64];
	int n = db_point_values(db, run, workload, users, metric, v, 64);
	return n > 0 ? stats_mean(v, n > 64 ? 64 : n) : 0.0 / 0.0;
}

/* Each design's run of the profile with sets (and variant last), and its
 * crossover and shares into rows. 0, or the exit status. */
static int run_designs(const char *cfgpath, const char **sets, int nsets, const char *const *designs, int nd,
		       struct db *db, struct paper_row *rows)
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
		int rc = run_suite(&cfg, db, &res);
		config_free(&cfg);
		rows[d].run = res.run;
		if (rc != 0) {
			rb_error("paper: the %s run %s: %s", designs[d], res.run ? "failed" : "did not start",
				 res.note[0] ? res.note : "see above");
			return rc == 130 ? 130 : 1;
		}
	}
	for (int d = 0; d < nd; d++) {
		struct paper_row *r = &rows[d];
		r->found = crossover_find(db, r->run, &r->x, 1) > 0;
		r->users = r->found ? crossover_nearest_point(&r->x) : 0;
		for (size_t s = 0; s < PAPER_NSHARES; s++)
			r->share[s] = r->found ? mean_at(db, r->run, r->x.workload, r->users, paper_shares[s]) : 0.0 / 0.0;
		split_at(db, r);
	}
	return 0;
}


/* The profile's walk_calibration, the reference --calibrate compares
 * this host's with: 0, or 2 for a bad config (said). */
static int reference_of(const struct paper_opts *o, char *buf, size_t len)
{
	char err[700];
	struct config cfg;
	int bad = config_load_set(&cfg, o->config, o->sets, o->nsets, err, sizeof(err)) < 0;
	if (bad)
		rb_error("%s", err);
	else
		snprintf(buf, len, "%s", cfg.walk_calibration);
	config_free(&cfg);
	return bad ? 2 : 0;
}

/* --calibrate: this host's walk calibration (a noisy one is refused: 2),
 * the profile on it into rows, then on the reference into ref. */
static int run_calibrated(const struct paper_opts *o, struct db *db, struct paper_result *res)
{
	struct walk_calib_plan plan;
	struct walk_calib c;
	char kept[PATH_MAX], host_set[PATH_MAX + 32];
	walk_calib_default_plan(&plan);
	int kr = walk_calib_keep(db->path, &plan, &c, stderr);
	if (kr < 0)
		return kr == -2 ? 2 : 1;
	if (results_path(db->path, WALK_CALIB_FILE, kept, sizeof(kept)) < 0)
		return 1;
	snprintf(host_set, sizeof(host_set), "walk_calibration=%s", kept);
	o->sets[o->nsets] = host_set;
	int rc = run_designs(o->config, o->sets, o->nsets + 1, o->designs, o->nd, db, res->rows);
	if (!rc && res->reference[0])
		rc = run_designs(o->config, o->sets, o->nsets, o->designs, o->nd, db, res->ref);
	return rc;
}

static void paper_figure(const struct paper_opts *o, struct db *db, struct paper_result *res)
{
	int64_t runs[PAPER_NDESIGNS];
	double crossed[PAPER_NDESIGNS];
	const char *workloads[PAPER_NDESIGNS];
	long nearest[PAPER_NDESIGNS];
	for (int d = 0; d < o->nd; d++) {
		runs[d] = res->rows[d].run;
		crossed[d] = paper_crossed_at(&res->rows[d]);
		workloads[d] = res->rows[d].found ? res->rows[d].x.workload : "";
		nearest[d] = res->rows[d].users;
	}
	char dir[PATH_MAX], name[64], title[300];
	snprintf(name, sizeof(name), "paper-%lld-%lld", (long long)runs[0], (long long)runs[o->nd - 1]);
	snprintf(title, sizeof(title), "The 2010 AIM7 crossover on the engine (%s%s%s)", o->config,
		 o->nsets ? ", changed by --set" : "", o->calibrate ? ", this host's walk cost" : "");
	if (results_dir(db->path, name, dir, sizeof(dir)) < 0 ||
	    report_paper(db, runs, o->designs, crossed, workloads, nearest, o->nd, title, dir, res->figure,
			 sizeof(res->figure)) < 0)
		res->figure[0] = 0;
}

int paper_run(const struct paper_opts *o, struct db *db, struct paper_result *res)
{
	memset(res, 0, sizeof(*res));
	int rc = reference_of(o, res->reference, sizeof(res->reference));
	if (!rc)
		rc = o->calibrate ? run_calibrated(o, db, res)
				  : run_designs(o->config, o->sets, o->nsets, o->designs, o->nd, db, res->rows);
	if (!rc)
		paper_figure(o, db, res);
	return rc;
}
