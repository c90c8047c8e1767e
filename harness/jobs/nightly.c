/* `nightly` as a job (nightly.h):
 *
 *   nightly_check    the config's nightly keys and --baseline, before any work
 *   run_parts        each part of nightly_parts[] the config asks for, in order
 *   judge_parts      each run against its baseline, its regressions confirmed, then the control's pair
 *   write_trend      the suite's trend page, tonight among its nights
 *   write_outputs    --junit, --markdown, the suite's report with the verdicts and the trend's link
 *   say_night        the night's line, the control's regressions said apart
 *
 * Every part reaches every output, a first night's as not judged. */
#include "nightly.h"
#include "verdict_files.h"
#include "nightly_confirm.h"
#include "nightly_judge.h"
#include "nightly_parts.h"
#include "query.h"
#include "run_here.h"
#include "report.h"
#include "trend_job.h"
#include "util.h"
#include "verdicts.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_PARTS 8 /* the suite, 4 vm kernels, walkcost, benchmarks */

struct night {
	struct config *cfg;
	struct db *db;
	const struct nightly_opts *o;
	struct night_run parts[MAX_PARTS];
	int nparts;
	int64_t control[2]; /* the control's runs, good and known bad; 0 none */
	/* the outputs' columns: a comparison of two sides each */
	struct side sa[MAX_PARTS + 1], sb[MAX_PARTS + 1];
	struct comparison cmp[MAX_PARTS + 1];
	int shown;
	int rc;
	bool interrupted; /* in a confirmation: the rest stand as judged */
};

int nightly_check(const struct config *cfg, struct db *db, const char *baseline)
{
	if (cfg->n_vm_kernels && !cfg->n_vm_users) {
		rb_error("%s: vm_kernels needs vm_users (the users of the vm part)", cfg->path);
		return 2;
	}
	if (cfg->n_reference_kernels && access(cfg->reference_config, R_OK) < 0) {
		rb_error("%s: reference_config %s: %s", cfg->path, cfg->reference_config, strerror(errno));
		return 2;
	}
	int64_t run;
	/* said before a night's work, not after it */
	return baseline ? night_baseline_given(db, baseline, cfg->name, &run) : 0;
}

void nightly_plan(const struct config *cfg)
{
	for (const struct nightly_part *p = nightly_parts; p->name; p++)
		for (int k = 0; k < p->count(cfg); k++)
			p->plan(cfg, k);
}

/* 0, or the night's exit status when a part could not run: a control
 * that could not leaves the others to be judged, the night failed (2). */
static int run_parts(struct night *n)
{
	for (const struct nightly_part *p = nightly_parts; p->name; p++)
		for (int k = 0; k < p->count(n->cfg); k++) {
			int64_t runs[2] = { 0, 0 };
			int rc = p->run(n->cfg, k, n->db, runs);
			if (rc == 130 || (rc && !p->control))
				return rc;
			if (rc)
				n->rc = 2;
			else if (p->control)
				memcpy(n->control, runs, sizeof(runs));
			else if (runs[0] && n->nparts < MAX_PARTS)
				n->parts[n->nparts++].run = runs[0];
		}
	return 0;
}

static void judge_parts(struct night *n)
{
	for (int i = 0; i < n->nparts; i++) {
		int s = n->shown;
		int r = judge_part(n->db, &n->parts[i], i == 0 ? n->o->baseline : NULL, &n->sa[s], &n->sb[s], &n->cmp[s]);
		if (r == 1 && !n->interrupted) {
			r = night_confirm(n->db, &n->parts[i], n->sa[s].runs[0], &n->cmp[s]);
			if (r == 130)
				n->interrupted = true, r = 1;
		}
		if (r == 2) {
			comparison_free(&n->cmp[s]);
			memset(&n->cmp[s], 0, sizeof(n->cmp[s]));
			n->rc = 2;
			continue;
		}
		/* a regressed night is never a later night's baseline */
		db_run_set_verdict(n->db, n->parts[i].run, r == 1 ? "regressed" : "clean");
		if (night_flags_record(n->db, n->parts[i].run, &n->cmp[s]) < 0)
			rb_warn("nightly: run %lld's flags are not recorded: %s", (long long)n->parts[i].run,
				db_errmsg(n->db));
		n->shown++;
		if (r == 1 && n->rc == 0)
			n->rc = 1;
	}
	if (!n->control[0])
		return;
	int s = n->shown;
	if (judge_control(n->db, n->cfg, n->control, &n->sa[s], &n->sb[s], &n->cmp[s]))
		n->rc = 2;
	if (n->cmp[s].n || n->cmp[s].expect[0])
		n->shown++;
}

/* The page of the suite and its parts, and its path from the report's
 * folder (a sibling: results_path names both) into href; "" none. */
static void write_trend(struct night *n, char *href, size_t len)
{
	struct trend_job_opts o = { .suite = n->cfg->name, .quiet = true, .cfg = n->cfg };
	char page[PATH_MAX + 32], shown[PATH_MAX + 64], name[128], path[PATH_MAX];
	href[0] = 0;
	if (trend_job(n->db, &o, page, sizeof(page)) == 2 || !page[0])
		return;
	trend_dir_name(n->cfg->name, name, sizeof(name));
	if (results_path(n->db->path, name, path, sizeof(path)) < 0)
		return;
	const char *base = strrchr(path, '/');
	snprintf(href, len, "../%s/trend.html", base ? base + 1 : path);
	printf("trend: %s\n", rb_path_shown(page, shown, sizeof(shown)));
}

static void write_outputs(struct night *n)
{
	char href[PATH_MAX + 32];
	write_trend(n, href, sizeof(href));
	/* the suite's report, remade with the night's verdicts on top */
	if (verdict_files("nightly", n->o->junit, n->o->markdown, n->db, n->parts[0].run, n->shown, n->cmp, n->sa,
			  n->sb, href[0] ? href : NULL))
		n->rc = 2;
}

static void say_night(struct night *n)
{
	int regressions = 0, judged = 0, control = -1, unconfirmed = 0;
	for (int i = 0; i < n->shown; i++) {
		if (n->cmp[i].expect[0])
			control = comparison_regressed_on(&n->cmp[i], n->cmp[i].expect);
		else if (!n->cmp[i].unjudged[0])
			regressions += n->cmp[i].counts[V_REGRESSION], judged++;
		unconfirmed += n->cmp[i].counts[V_NOT_CONFIRMED];
	}
	char nc[64] = "";
	if (unconfirmed)
		snprintf(nc, sizeof(nc), "; %d not confirmed", unconfirmed);
	printf("\nnightly: %s (%d regressions over %d comparisons%s%s)\n",
	       n->rc == 0 ? "no regression" : n->rc == 1 ? "REGRESSED" : "could not judge", regressions, judged, nc,
	       control < 0 ? "" : control ? "; the reference saw its regression" : "; the reference saw nothing");
}

int nightly_run(struct config *cfg, struct db *db, const struct nightly_opts *o)
{
	static struct night n;
	memset(&n, 0, sizeof(n));
	n.cfg = cfg;
	n.db = db;
	n.o = o;
	int rc = run_parts(&n);
	if (rc)
		return rc;
	judge_parts(&n);
	write_outputs(&n);
	say_night(&n);
	for (int i = 0; i < n.shown; i++)
		comparison_free(&n.cmp[i]);
	return n.interrupted ? 130 : n.rc;
}
