/* Change points across nights (harness/compare/changepoint.c, trend.c):
 * a step dated to its night, a slow drift found that no night against
 * its baseline flags, nothing on nights that did not change, and the
 * series read back through the real database API.
 *
 * test_trend --write DB KIND NIGHTS METRICS SEED writes a synthetic
 * history through that API (KIND step, drift or flat), for
 * tests/integration/trend.sh and the trend record: a suite "synthetic"
 * on one machine, aim7 at 8 users, five repetitions a night, each
 * metric's values 1% noisy; jobs_per_min steps -20% from night 6, or
 * drifts -3% a night. */
#include "changepoint.h"
#include "db.h"
#include "nights.h"
#include "query.h"
#include "tap.h"
#include "trend.h"
#include "util.h"
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 88172645463325252ULL;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

enum kind { FLAT, STEP, DRIFT };

/* night i's true jobs_per_min */
static double level(enum kind k, int i)
{
	return 1e5 * (k == STEP ? (i >= 5 ? 0.8 : 1.0) : k == DRIFT ? pow(0.97, i) : 1.0);
}

static const char *const base_metrics[] = { "jobs_per_min", "sys_pct", "wall_s", "lock_contentions" };

static int write_history(const char *path, enum kind k, int nights, int metrics, uint64_t seed, int64_t *runs)
{
	struct db db;
	char err[600];
	rng = seed * 2654435761ULL + 1;
	if (db_open(path, &db, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	for (int i = 0; i < nights; i++) {
		char rev[32];
		snprintf(rev, sizeof(rev), "rev%04d", i + 1);
		struct run_meta m = { .revision = rev, .host = "synthetic", .kernel_release = "6.1", .target = "host",
				      .config_name = "synthetic", .config_text = "users = 8\n", .fingerprint = "fp",
				      .tag = "nightly" };
		int64_t run, point;
		if (db_run_begin(&db, &m, &run, err, sizeof(err)) < 0)
			return fprintf(stderr, "%s\n", err), -1;
		for (int rep = 1; rep <= 5; rep++) {
			struct sample_set ss = { 0 };
			for (int j = 0; j < metrics; j++) {
				char name[32];
				if (j < (int)ARRAY_SIZE(base_metrics))
					snprintf(name, sizeof(name), "%s", base_metrics[j]);
				else
					snprintf(name, sizeof(name), "m%03d_s", j);
				double v = j == 0 ? level(k, i) : 10.0 + j;
				ss_add(&ss, name, v * (1 + 0.01 * gauss()), "x");
			}
			struct point_rec pr = { rep, "aim7", 8, rep, "users=8", "done", NULL, "t0", "t1" };
			if (db_point_record(&db, run, &pr, &ss, &point, err, sizeof(err)) < 0)
				return fprintf(stderr, "%s\n", err), -1;
			ss_free(&ss);
		}
		db_run_end(&db, run, "done", NULL);
		db_run_set_verdict(&db, run, "clean");
		if (runs)
			runs[i] = run;
	}
	db_close(&db);
	return 0;
}

static int load(const char *path, struct trend *t)
{
	struct db db;
	char err[600];
	static const char *const headline[] = { "jobs_per_min" };
	struct trend_opts o = { .headline = headline, .nheadline = 1 };
	memset(t, 0, sizeof(*t));
	if (db_open(path, &db, err, sizeof(err)) < 0)
		return -1;
	int rc = trend_load(&db, "synthetic", "fp", &o, t);
	db_close(&db);
	trend_changepoints(t);
	return rc;
}

static const struct trend_series *series(const struct trend *t, const char *metric)
{
	for (int i = 0; i < t->ns; i++)
		if (!strcmp(t->series[i].metric, metric))
			return &t->series[i];
	return NULL;
}

static int changes_besides(const struct trend *t, const char *metric)
{
	int n = 0;
	for (int i = 0; i < t->ns; i++)
		if (strcmp(t->series[i].metric, metric))
			n += t->series[i].ncps;
	return n;
}

static void pure(void)
{
	double v[12];
	for (int i = 0; i < 12; i++)
		v[i] = (i < 7 ? 100 : 80) + (i % 3) * 0.5;
	struct changepoint c[4];
	int n = changepoints_find(v, 12, 0.01, 2, c, 4);
	CHECK(n == 1 && c[0].at == 7, "a step of -20%% found at its value (%d, at %d)", n, n ? c[0].at : -1);
	CHECK(n == 1 && c[0].lo < -19 && c[0].hi > -21 && c[0].lo <= c[0].shift && c[0].shift <= c[0].hi,
	      "its shift %.2f within [%.2f, %.2f]", c[0].shift, c[0].lo, c[0].hi);
	for (int i = 0; i < 12; i++)
		v[i] = 50;
	CHECK(changepoints_find(v, 12, 0.01, 2, c, 4) == 0, "a constant series: none");
	CHECK(changepoints_find(v, 3, 0.01, 2, c, 4) == 0, "three values: too short for two a side");
	CHECK(changepoints_find(v, 0, 0.01, 2, c, 4) == 0, "no values: none");
}

static void step(const char *dir)
{
	char path[300];
	int64_t runs[10];
	struct trend t;
	snprintf(path, sizeof(path), "%s/step.db", dir);
	CHECK(write_history(path, STEP, 10, 4, 1, runs) == 0, "a step history written");
	int loaded = load(path, &t);
	CHECK(loaded == 0 && t.nn == 10 && t.ns == 4, "ten nights, four series (%d, %d)", t.nn, t.ns);
	const struct trend_series *s = series(&t, "jobs_per_min");
	CHECK(s && s->ncps == 1 && s->cps[0].night == 5 && s->cps[0].prev == 4,
	      "jobs_per_min changes at night 6, after night 5 (%d change points, at night %d)", s ? s->ncps : -1,
	      s && s->ncps ? s->cps[0].night + 1 : -1);
	CHECK(s && s->ncps == 1 && s->cps[0].kind == CP_REGRESSION && fabs(s->cps[0].rel + 0.2) < 0.02 &&
		      s->cps[0].rel_lo < s->cps[0].rel && s->cps[0].rel < s->cps[0].rel_hi,
	      "a regression of %.1f%% [%.1f, %.1f]", s && s->ncps ? 100 * s->cps[0].rel : 0,
	      s && s->ncps ? 100 * s->cps[0].rel_lo : 0, s && s->ncps ? 100 * s->cps[0].rel_hi : 0);
	CHECK(!strcmp(t.nights[4].revision, "rev0005") && !strcmp(t.nights[5].revision, "rev0006"),
	      "the revisions either side: %s..%s", t.nights[4].revision, t.nights[5].revision);
	CHECK(changes_besides(&t, "jobs_per_min") == 0, "no change point on the other metrics");
	CHECK(trend_check(&t, TREND_CHECK_NIGHTS) == 1, "--check: a regression within the last %d nights",
	      TREND_CHECK_NIGHTS);
	CHECK(trend_check(&t, 4) == 0, "but not within the last 4");
	CHECK(s && s->headline && trend_series_shown(s), "the headline metric is shown");
	const struct trend_series *w = series(&t, "wall_s");
	CHECK(w && !trend_series_shown(w), "an unchanged, unflagged other metric is not");
	trend_free(&t);

	/* flags and the baseline band, through the same API */
	struct db db;
	char err[600];
	db_open(path, &db, err, sizeof(err));
	CHECK(db_night_flag_add(&db, runs[5], "aim7", 8, "wall_s", "not confirmed", 0.3) == 0 &&
		      db_night_flag_add(&db, runs[5], "aim7", 8, "jobs_per_min", "regression", -0.2) == 0,
	      "two flags recorded on night 6");
	int64_t base;
	int pinned;
	CHECK(db_baseline_find(&db, "synthetic", "fp", NULL, INT64_MAX, &base, &pinned) == 1 && base == runs[9],
	      "the newest clean night is the baseline");
	CHECK(db_baseline_find(&db, "synthetic", "fp", NULL, runs[6], &base, &pinned) == 1 && base == runs[4],
	      "a flagged night never is: before night 7, night 5 is");
	db_close(&db);
	CHECK(load(path, &t) == 0, "read again");
	w = series(&t, "wall_s");
	s = series(&t, "jobs_per_min");
	CHECK(w && w->flag[5] == 'n' && w->flagged == 1 && trend_series_shown(w), "a not confirmed flag marks its series");
	CHECK(s && s->flag[5] == 'r' && t.nights[5].flags == 2 && t.nights[5].not_confirmed == 1,
	      "the night counts its flags");
	CHECK(s && t.nights[9].baseline && s->band_lo == s->lo[9] && s->band_hi == s->hi[9],
	      "the band is the baseline night's spread");
	trend_free(&t);
}

static void drift(const char *dir)
{
	char path[300];
	int64_t runs[10];
	struct trend t;
	snprintf(path, sizeof(path), "%s/drift.db", dir);
	CHECK(write_history(path, DRIFT, 10, 4, 2, runs) == 0, "a drift history written");
	/* no night against the night before it flags a thing */
	struct db db;
	char err[600];
	int flagged = 0;
	db_open(path, &db, err, sizeof(err));
	for (int i = 1; i < 10; i++) {
		struct side a = { .db = &db, .runs = { runs[i - 1] }, .nruns = 1 };
		struct side b = { .db = &db, .runs = { runs[i] }, .nruns = 1 };
		struct comparison c = { 0 };
		compare_sides(&a, &b, &c);
		flagged += c.counts[V_REGRESSION];
		comparison_free(&c);
	}
	db_close(&db);
	CHECK(flagged == 0, "-3%% a night: no night flags a regression against the night before (%d)", flagged);
	CHECK(load(path, &t) == 0, "read back");
	const struct trend_series *s = series(&t, "jobs_per_min");
	CHECK(s && s->ncps >= 1 && s->cps[s->ncps - 1].kind == CP_REGRESSION,
	      "the drift is found (%d change points)", s ? s->ncps : -1);
	CHECK(trend_check(&t, TREND_CHECK_NIGHTS) == 1, "--check fails on it");
	CHECK(changes_besides(&t, "jobs_per_min") == 0, "nothing else changed");
	trend_free(&t);
}

static void flat(const char *dir)
{
	for (uint64_t seed = 21; seed <= 23; seed++) {
		char path[300];
		struct trend t;
		snprintf(path, sizeof(path), "%s/flat-%d.db", dir, (int)seed);
		write_history(path, FLAT, 10, 4, seed, NULL);
		CHECK(load(path, &t) == 0, "A/A, seed %d: read back", (int)seed);
		CHECK(changes_besides(&t, "") == 0 && trend_check(&t, TREND_CHECK_NIGHTS) == 0,
		      "A/A, seed %d: no change point, --check passes", (int)seed);
		trend_free(&t);
	}
}

int main(int argc, char **argv)
{
	if (argc == 7 && !strcmp(argv[1], "--write")) {
		enum kind k = !strcmp(argv[3], "step") ? STEP : !strcmp(argv[3], "drift") ? DRIFT : FLAT;
		return write_history(argv[2], k, atoi(argv[4]), atoi(argv[5]), strtoull(argv[6], NULL, 10), NULL) ? 1 : 0;
	}
	char dir[] = "/tmp/rmapbench-trend-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	pure();
	step(dir);
	drift(dir);
	flat(dir);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
	}
	return tap_done();
}
