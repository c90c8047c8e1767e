/* A bisect's steps (bisect_step.h). */
#include "bisect_step.h"
#include "config.h"
#include "kernel.h"
#include "kernel_runs.h"
#include "query.h"
#include "run_here.h"
#include "report.h"
#include "signals.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>

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

int regressed(struct bisect *b, int64_t a, int64_t run, const char *la, const char *lb, struct comparison *c,
		     struct side *sa, struct side *sb)
{
	*sa = (struct side){ .db = b->db, .runs = { a }, .nruns = 1 };
	*sb = (struct side){ .db = b->db, .runs = { run }, .nruns = 1 };
	snprintf(sa->label, sizeof(sa->label), "%s (run %lld)", la, (long long)a);
	snprintf(sb->label, sizeof(sb->label), "%s (run %lld)", lb, (long long)run);
	if (compare_sides(sa, sb, c) < 0)
		return -1;
	return b->metric ? comparison_regressed_on(c, b->metric) : c->counts[V_REGRESSION] > 0;
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

void steps_figure(struct bisect *b, int first)
{
	const char *metric = b->metric ? b->metric : "jobs_per_min";
	struct bisect_point p[64];
	int n = 0, mark = -1;
	char name[64], dir[PATH_MAX], png[PATH_MAX + 40], shown[PATH_MAX + 80], title[200];
	for (int i = -1; i < b->r.n && n < (int)ARRAY_SIZE(p); i++) {
		int64_t run = i < 0 ? b->good_run : b->runs[i];
		if (!run)
			continue;
		struct last_users l = { &p[n], -1 };
		snprintf(p[n].commit, sizeof(p[n].commit), "%.12s", i < 0 ? b->r.good : b->r.commits[i].hash);
		if (db_metric_by_users(b->db, run, metric, last_users, &l) < 0 || l.users < 0)
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
