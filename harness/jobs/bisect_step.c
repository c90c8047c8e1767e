/* A bisect's steps (bisect_step.h). */
#include "bisect_step.h"
#include "config.h"
#include "kernel.h"
#include "kernel_errors.h"
#include "kernel_runs.h"
#include "metrics.h"
#include "query.h"
#include "run_here.h"
#include "report.h"
#include "signals.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int any_error(void *arg, const struct db_kernel_error *e)
{
	(void)arg;
	(void)e;
	return 1;
}

static bool has_errors(struct db *db, int64_t run)
{
	return db_kernel_errors_each(db, run, any_error, NULL) == 1;
}

int step_run(struct bisect *b, const char *hash, const char *tag, int64_t *run)
{
	char spec[KERNEL_SPEC_MAX + 64], needle[KERNEL_SPEC_MAX + 80];
	snprintf(spec, sizeof(spec), "git:%s@%s", b->tree, hash);
	snprintf(needle, sizeof(needle), "kernel=%s", spec);
	*run = 0;
	if (db_run_find_tagged(b->db, tag, b->cfg.name, needle, run) == 1) {
		printf("bisect: %.12s: run %lld (%s, recorded before)\n", hash, (long long)*run, tag);
		return 0;
	}
	fflush(stdout);
	int rc = kernels_run_step(&b->cfg, spec, tag, b->db, run);
	if (rc == 130 || rb_interrupted)
		return 130;
	if (rc == 2 && !*run)
		return 2;
	int done = *run ? db_run_points_done(b->db, *run) : 0;
	/* hunting an error, a guest that died of it is the finding, not a skip */
	if (*run && done <= 0 && b->error && has_errors(b->db, *run)) {
		printf("bisect: %.12s: run %lld, no point done but kernel errors recorded: judged on them\n", hash,
		       (long long)*run);
		return 0;
	}
	if (!*run || done <= 0) {
		printf("bisect: %.12s: skipped: %s\n", hash,
		       !*run ? "it did not build or boot (above)" : "no point of its run was done (a guest panic or hang, above)");
		return 1;
	}
	/* a point lost to a guest that panicked at its end leaves the others:
	 * the verdicts count the points done */
	if (rc)
		printf("bisect: %.12s: run %lld, judged on its %d points done (the others failed, above)\n", hash,
		       (long long)*run, done);
	else
		printf("bisect: %.12s: run %lld\n", hash, (long long)*run);
	return 0;
}

/* The counts whose appearance is an error: metrics.c's rows judged by
 * appearance (the kernel's reports, the oopshunt workload's checks),
 * NULL-ended. */
static const char *const *error_counts(void)
{
	static const char *names[16];
	int n = 0;
	for (const struct metric_rule *r = metric_rules; r->name && n < (int)ARRAY_SIZE(names) - 1; r++)
		if (r->appears)
			names[n++] = r->name;
	names[n] = NULL;
	return names;
}

/* A kernel error signature, or a count whose appearance is an error. */
static bool is_error_row(const struct verdict_row *r)
{
	return r->decided || metric_rule(r->metric)->appears;
}

/* B's points that showed row r: a signature row counts them itself; a
 * count's are its values above 0. */
static int points_showing(struct db *db, int64_t run, const struct verdict_row *r)
{
	if (r->decided)
		return r->nb;
	static double v[4096];
	int n = db_point_values(db, run, r->workload, r->users, r->metric, v, (int)ARRAY_SIZE(v)), k = 0;
	for (int i = 0; i < n && i < (int)ARRAY_SIZE(v); i++)
		k += v[i] > 0;
	return k;
}

int regressed(struct bisect *b, int64_t a, int64_t run, const char *la, const char *lb, struct comparison *c,
		     struct side *sa, struct side *sb)
{
	*sa = (struct side){ .db = b->db, .runs = { a }, .nruns = 1 };
	*sb = (struct side){ .db = b->db, .runs = { run }, .nruns = 1 };
	snprintf(sa->label, sizeof(sa->label), "%s (run %lld)", la, (long long)a);
	snprintf(sb->label, sizeof(sb->label), "%s (run %lld)", lb, (long long)run);
	if (compare_sides(sa, sb, c) < 0)
		return -1;
	if (b->error && !b->metric) { /* any error GOOD did not show */
		for (int i = 0; i < c->n; i++)
			if (is_error_row(&c->rows[i]) && c->rows[i].kind == V_REGRESSION)
				return 1;
		return 0;
	}
	return b->metric ? comparison_regressed_on(c, b->metric) : c->counts[V_REGRESSION] > 0;
}

int step_judge(struct bisect *b, const char *hash, const char *tag, const char *label, int64_t *run)
{
	for (int t = 1; t <= b->tries; t++) {
		char tg[48];
		if (t == 1)
			snprintf(tg, sizeof(tg), "%s", tag);
		else
			snprintf(tg, sizeof(tg), "%s-%d", tag, t);
		int s = step_run(b, hash, tg, run);
		if (s == 1)
			return -1;
		if (s)
			return -s;
		struct comparison cmp;
		struct side sa, sb;
		int bad = regressed(b, b->good_run, *run, "GOOD", label, &cmp, &sa, &sb);
		comparison_free(&cmp);
		if (bad < 0)
			return -1;
		if (bad)
			return 1;
		if (t < b->tries)
			printf("bisect: %.12s: clean in run %d of %d\n", hash, t, b->tries);
	}
	return 0;
}

void error_tries(struct bisect *b, const struct comparison *c, int64_t bad_run)
{
	/* any error: BAD's points that showed one, done or not (a guest that
	 * died of it among them); one signature: its row's points */
	int shown = b->metric ? 0 : db_points_with_errors(b->db, bad_run, error_counts());
	int points = db_run_points_all(b->db, bad_run);
	for (int i = 0; b->metric && i < c->n; i++) {
		const struct verdict_row *r = &c->rows[i];
		if (r->kind == V_REGRESSION && !strcmp(r->metric, b->metric))
			shown = points_showing(b->db, bad_run, r);
	}
	b->tries = 1;
	if (points <= 0 || shown <= 0 || shown >= points) {
		printf("bisect: BAD showed the error on %d of its %d points: one clean run makes a step good\n", shown,
		       points);
		return;
	}
	double rate = (double)shown / points;
	int need = (int)ceil(log(0.05) / log(1 - rate)); /* points clean before a miss is under 5% */
	b->tries = (need + points - 1) / points;
	if (b->tries > 8)
		b->tries = 8;
	printf("bisect: BAD showed the error on %d of its %d points (rate %.2f): a step is good after %d clean "
	       "point%s, %d run%s of %d\n",
	       shown, points, rate, need, need == 1 ? "" : "s", b->tries, b->tries == 1 ? "" : "s", points);
}

int next_step(const struct bisect *b, int lo, int hi)
{
	int mid = lo + (hi - lo) / 2;
	for (int d = 0; d < hi - lo; d++)
		for (int s = -1; s <= 1; s += 2) {
			int i = mid + s * d;
			if (i > lo && i < hi && b->state[i] != S_SKIP)
				return i;
		}
	return -1;
}

struct last_users {
	struct bisect_point *p;
	long users;
};

/* The row of the largest users: a bisect's config is mostly one point. */
static int last_users(void *arg, const struct db_users_stat *s)
{
	struct last_users *l = arg;
	if (s->users >= l->users) {
		l->users = s->users;
		l->p->mean = s->mean;
		l->p->min = s->min;
		l->p->max = s->max;
	}
	return 0;
}

/* An error's step: the share of its run's points, done or not, that
 * showed an error (a guest that died of it is such a point). */
static int error_share(struct db *db, int64_t run, struct bisect_point *p)
{
	int k = db_points_with_errors(db, run, error_counts()), n = db_run_points_all(db, run);
	if (k < 0 || n <= 0)
		return -1;
	p->mean = p->min = p->max = 100.0 * k / n;
	return 0;
}

void steps_figure(struct bisect *b, int first)
{
	const char *metric = b->error ? "points_with_an_error_pct" : b->metric ? b->metric : "jobs_per_min";
	struct bisect_point p[64];
	int n = 0, mark = -1;
	char name[64], dir[PATH_MAX], png[PATH_MAX + 40], shown[PATH_MAX + 80], title[200];
	for (int i = -1; i < b->r.n && n < (int)ARRAY_SIZE(p); i++) {
		int64_t run = i < 0 ? b->good_run : b->runs[i];
		if (!run)
			continue;
		struct last_users l = { &p[n], -1 };
		snprintf(p[n].commit, sizeof(p[n].commit), "%.12s", i < 0 ? b->r.good : b->r.commits[i].hash);
		if (b->error ? error_share(b->db, run, &p[n]) < 0
			     : db_metric_by_users(b->db, run, metric, last_users, &l) < 0 || l.users < 0)
			continue;
		if (i == first)
			mark = n;
		n++;
	}
	snprintf(name, sizeof(name), "bisect-%.12s-%.12s", b->r.good, b->r.bad);
	snprintf(title, sizeof(title), "%s along the bisect, GOOD %.12s to BAD %.12s", metric, b->r.good, b->r.bad);
	if (results_dir(b->db->path, name, dir, sizeof(dir)) == 0 &&
	    report_bisect(p, n, mark, metric, title, dir, png, sizeof(png)) == 0)
		printf("figure: %s\n", rb_path_shown(png, shown, sizeof(shown)));
}
