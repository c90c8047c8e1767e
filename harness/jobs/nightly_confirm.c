/* A night's regression confirmed (nightly_confirm.h):
 *
 *   flagged_points   the regressions' workloads and users, or none to re-run
 *   stored_config    each side's config read back from its run, cut to them
 *   run_rounds       A B A B, each a run tagged confirm, linked to the night
 *   rejudge          the rounds compared; each night's row kept or not confirmed
 */
#include "nightly_confirm.h"
#include "nights.h"
#include "escape.h"
#include "query.h"
#include "suite_job.h"
#include "util.h"
#include "verdicts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rows a re-run can speak for: a measured or counted metric's
 * regression, not a kernel error's (decided by appearance). */
static bool rerunnable(const struct verdict_row *r)
{
	return r->kind == V_REGRESSION && !r->decided;
}

struct flagged {
	char workloads[8][32];
	int nw;
	long users[CFG_MAX_LIST];
	int nu;
};

static void flagged_points(const struct comparison *c, struct flagged *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < c->n; i++) {
		const struct verdict_row *r = &c->rows[i];
		if (!rerunnable(r))
			continue;
		int w = 0, u = 0;
		while (w < f->nw && strcmp(f->workloads[w], r->workload))
			w++;
		if (w == f->nw && f->nw < (int)ARRAY_SIZE(f->workloads) && strlen(r->workload) < sizeof(f->workloads[0]))
			snprintf(f->workloads[f->nw++], sizeof(f->workloads[0]), "%s", r->workload);
		while (u < f->nu && f->users[u] != r->users)
			u++;
		if (u == f->nu && f->nu < CFG_MAX_LIST)
			f->users[f->nu++] = r->users;
	}
}

struct stored {
	char *text;
};

static int stored_text(void *arg, const struct db_run *r)
{
	struct stored *s = arg;
	s->text = r->config_text ? strdup(r->config_text) : NULL;
	return 0;
}

/* run's own config, as it was recorded (its --set lines too), cut to the
 * flagged points: 0, or -1 having said why. */
static int stored_config(struct db *db, int64_t run, const char *suite, const struct flagged *f, struct config *cfg)
{
	struct stored s = { NULL };
	char origin[64], err[600];
	config_defaults(cfg);
	if (db_run_get(db, run, stored_text, &s) != 1 || !s.text) {
		rb_error("nightly: run %lld's config is not in %s: its regression cannot be confirmed", (long long)run,
			 db->path);
		free(s.text);
		return -1;
	}
	snprintf(origin, sizeof(origin), "run %lld's config", (long long)run);
	snprintf(cfg->path, sizeof(cfg->path), "%s", origin);
	int rc = config_parse_text(cfg, origin, s.text, err, sizeof(err));
	free(s.text);
	if (rc < 0) {
		rb_error("nightly: %s: its regression cannot be confirmed", err);
		return -1;
	}
	snprintf(cfg->name, sizeof(cfg->name), "%s", suite);
	snprintf(cfg->tag, sizeof(cfg->tag), "confirm");
	memcpy(cfg->workloads, f->workloads, sizeof(f->workloads));
	cfg->n_workloads = f->nw;
	memcpy(cfg->users, f->users, sizeof(f->users));
	cfg->n_users = f->nu;
	cfg->shard_count = cfg->shard_index = 0;
	cfg->stop_after_crossing = 0;
	return 0;
}

/* A B A B into the sides: 0, 130 interrupted, -1 a round did not run. */
static int run_rounds(struct db *db, int64_t night, struct config cfg[2], struct side sides[2])
{
	for (int round = 0; round < CONFIRM_ROUNDS; round++)
		for (int s = 0; s < 2; s++) {
			int64_t run = 0;
			printf("nightly %s: confirming, round %d of %d, %s\n", cfg[s].name, round + 1, CONFIRM_ROUNDS,
			       s ? "tonight's config (B)" : "the baseline's config (A)");
			fflush(stdout);
			int rc = suite_job_bare(&cfg[s], db, &run);
			if (rc == 130)
				return 130;
			if (!run)
				return -1;
			if (db_run_set_confirms(db, run, night) < 0)
				rb_warn("nightly: run %lld is not linked to night %lld: %s", (long long)run,
					(long long)night, db_errmsg(db));
			sides[s].runs[sides[s].nruns++] = run;
		}
	return 0;
}

static const struct verdict_row *row_of(const struct comparison *c, const struct verdict_row *r)
{
	for (int i = 0; i < c->n; i++)
		if (c->rows[i].users == r->users && !strcmp(c->rows[i].workload, r->workload) &&
		    !strcmp(c->rows[i].metric, r->metric))
			return &c->rows[i];
	return NULL;
}

/* Each of the night's regressions against the rounds' row of it. */
static void rejudge(struct comparison *c, const struct comparison *again)
{
	for (int i = 0; i < c->n; i++) {
		struct verdict_row *r = &c->rows[i];
		if (!rerunnable(r))
			continue;
		const struct verdict_row *x = row_of(again, r);
		char night[24], rerun[24], was[240];
		change_text(night, sizeof(night), r);
		if (x)
			change_text(rerun, sizeof(rerun), x);
		snprintf(was, sizeof(was), "%s", r->note);
		if (x && x->kind == V_REGRESSION) {
			snprintf(r->note, sizeof(r->note), "%s; confirmed: again A B A B %s (q %.2g)", was, rerun, x->q);
			continue;
		}
		snprintf(r->note, sizeof(r->note), "tonight %s (q %.2g); again A B A B: %s, %s%s", night, r->q,
			 x ? rerun : "not measured", x ? verdict_name(x->kind) : "no row",
			 x && x->tested ? "" : " (not tested)");
		if (x && x->tested)
			snprintf(r->note + strlen(r->note), sizeof(r->note) - strlen(r->note), " (q %.2g)", x->q);
		r->kind = V_NOT_CONFIRMED;
		c->counts[V_REGRESSION]--;
		c->counts[V_NOT_CONFIRMED]++;
	}
}

static void say_rejudged(const struct comparison *c)
{
	for (int i = 0; i < c->n; i++) {
		const struct verdict_row *r = &c->rows[i];
		if (r->decided || (r->kind != V_REGRESSION && r->kind != V_NOT_CONFIRMED))
			continue;
		char wl[128], mt[128], note[256];
		term_safe_copy(wl, sizeof(wl), r->workload);
		term_safe_copy(mt, sizeof(mt), r->metric);
		term_safe_copy(note, sizeof(note), r->note);
		printf("%-13s %s %ld %s: %s\n", r->kind == V_REGRESSION ? "confirmed" : "not confirmed", wl, r->users, mt,
		       note);
	}
}

int night_confirm(struct db *db, const struct night_run *p, int64_t base, struct comparison *c)
{
	struct flagged f;
	flagged_points(c, &f);
	bool suite_shaped = !strcmp(p->target, "host") || !strcmp(p->target, "vm");
	if (!f.nw || !suite_shaped || strcmp(p->status, "done")) /* a run that failed stays failed */
		return 1;
	printf("\nnightly %s: %d regressions flagged; their points again, the baseline's config (run %lld) and "
	       "tonight's (run %lld), A B A B\n",
	       p->suite, c->counts[V_REGRESSION], (long long)base, (long long)p->run);
	struct config cfg[2];
	struct side sides[2] = { { .db = db }, { .db = db } };
	int rc = -1;
	if (stored_config(db, base, p->suite, &f, &cfg[0]) == 0) {
		if (stored_config(db, p->run, p->suite, &f, &cfg[1]) == 0) {
			rc = run_rounds(db, p->run, cfg, sides);
			config_free(&cfg[1]);
		}
		config_free(&cfg[0]);
	}
	if (rc == 130)
		return 130;
	if (rc < 0) { /* unconfirmed is not cleared: the night's verdict stands */
		printf("nightly %s: the flagged points could not be run again: the regressions stand\n", p->suite);
		return 1;
	}
	struct comparison again = { 0 };
	snprintf(sides[0].label, sizeof(sides[0].label), "%s, the baseline's config again", p->suite);
	snprintf(sides[1].label, sizeof(sides[1].label), "%s, tonight's config again", p->suite);
	if (compare_sides(&sides[0], &sides[1], &again) < 0) {
		comparison_free(&again);
		return 1;
	}
	rejudge(c, &again);
	comparison_free(&again);
	say_rejudged(c);
	printf("nightly %s: %d confirmed, %d not confirmed\n", p->suite, c->counts[V_REGRESSION],
	       c->counts[V_NOT_CONFIRMED]);
	return c->counts[V_REGRESSION] > 0;
}

int night_flags_record(struct db *db, int64_t run, const struct comparison *c)
{
	int rc = 0;
	for (int i = 0; i < c->n; i++) {
		const struct verdict_row *r = &c->rows[i];
		if (r->kind != V_REGRESSION && r->kind != V_NOT_CONFIRMED)
			continue;
		double change = r->na && r->nb && r->median_a != 0 ? r->change : 0.0 / 0.0;
		if (db_night_flag_add(db, run, r->workload, r->users, r->metric,
				      r->kind == V_REGRESSION ? "regression" : "not confirmed", change) < 0)
			rc = -1;
	}
	return rc;
}
