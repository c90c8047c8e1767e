/* `trend` as a job (trend_job.h):
 *
 *   pick_suites     the (suite, machine) pairs with nights that were asked for
 *   trend_load      each one's nights and series, and their change points
 *   say_trend       a line a suite and one a change point (or the JSON)
 *   trend_page      the page, in the trend's results folder
 */
#include "trend_job.h"
#include "run_here.h"
#include "trend.h"
#include "trend_page.h"
#include "escape.h"
#include "nights.h"
#include "query.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TREND_MAX_SUITES 32

struct picked {
	const char *want;
	char suite[TREND_MAX_SUITES][96], fingerprint[TREND_MAX_SUITES][320];
	int n, more;
};

/* SUITE itself, or one of the nightly's parts of it */
static bool part_of(const char *suite, const char *want)
{
	static const char *const parts[] = { "", "-vm", "-walkcost", "-bench" };
	size_t n = strlen(want);
	if (strncmp(suite, want, n))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (!strcmp(suite + n, parts[i]))
			return true;
	return false;
}

static int pick_fn(void *arg, const char *suite, const char *fingerprint, int nights)
{
	struct picked *p = arg;
	(void)nights;
	if (p->want && !part_of(suite, p->want))
		return 0;
	if (p->n == TREND_MAX_SUITES || strlen(suite) >= sizeof(p->suite[0]) ||
	    strlen(fingerprint) >= sizeof(p->fingerprint[0])) {
		p->more++;
		return 0;
	}
	snprintf(p->suite[p->n], sizeof(p->suite[0]), "%s", suite);
	snprintf(p->fingerprint[p->n], sizeof(p->fingerprint[0]), "%s", fingerprint);
	p->n++;
	return 0;
}

void trend_dir_name(const char *suite, char *name, size_t len)
{
	snprintf(name, len, "trend-%s", suite ? suite : "all");
	for (char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
		      *c == '_'))
			*c = '_';
}

static void say_change(const struct trend *t, const struct trend_series *s, const struct trend_cp *c)
{
	char wl[96], mt[96], ra[64], rb[64];
	term_safe_copy(wl, sizeof(wl), s->workload);
	term_safe_copy(mt, sizeof(mt), s->metric);
	term_safe_copy(ra, sizeof(ra), t->nights[c->prev].revision);
	term_safe_copy(rb, sizeof(rb), t->nights[c->night].revision);
	printf("  %-11s %s %ld %s: at night %d (%.10s), after night %d: %.4g -> %.4g, %+.1f%% [%+.1f, %+.1f], "
	       "p %.2g; revisions %s..%s\n",
	       trend_cp_name(c->kind), wl, s->users, mt, c->night + 1, t->nights[c->night].date, c->prev + 1,
	       c->cp.before, c->cp.after, 100 * c->rel, 100 * c->rel_lo, 100 * c->rel_hi, c->cp.p, ra, rb);
}

static void say_trend(const struct trend *t, int k)
{
	char suite[96], fp[96];
	term_safe_copy(suite, sizeof(suite), t->suite);
	term_safe_copy(fp, sizeof(fp), t->fingerprint);
	int cps = 0, flagged = 0;
	for (int i = 0; i < t->ns; i++)
		cps += t->series[i].ncps, flagged += t->series[i].flagged > 0;
	printf("trend %s on %.60s: %d nights", suite, fp, t->nn);
	if (t->nn)
		printf(" (%.10s to %.10s)", t->nights[0].date, t->nights[t->nn - 1].date);
	printf(", %d series, %d ever flagged, %d change points; latest change a regression within %d nights: %d\n",
	       t->ns, flagged, cps, k, trend_check(t, k));
	for (int i = 0; i < t->ns; i++)
		for (int c = 0; c < t->series[i].ncps; c++)
			say_change(t, &t->series[i], &t->series[i].cps[c]);
}

static int write_page(struct db *db, const struct trend_job_opts *o, const struct trend *t, int n, char *page,
		      size_t plen)
{
	char name[128], dir[PATH_MAX], title[200];
	trend_dir_name(o->suite, name, sizeof(name));
	if (results_dir(db->path, name, dir, sizeof(dir)) < 0)
		return -1;
	snprintf(title, sizeof(title), "rmapbench trend: %s", o->suite ? o->suite : "every suite");
	return trend_page(t, n, dir, title, page, plen);
}

int trend_job(struct db *db, const struct trend_job_opts *o, char *page, size_t plen)
{
	static struct picked p;
	memset(&p, 0, sizeof(p));
	p.want = o->suite;
	page[0] = 0;
	if (db_night_suites_each(db, pick_fn, &p) < 0) {
		rb_error("trend: %s: %s", db->path, db_errmsg(db));
		return 2;
	}
	if (!p.n && !o->quiet)
		printf("trend: no nightly runs%s%s in %s\n", o->suite ? " of suite " : "", o->suite ? o->suite : "",
		       db->path);
	int k = o->cfg ? o->cfg->trend_check_nights : TREND_CHECK_NIGHTS;
	const char *headline[8];
	struct trend_opts to = { o->metric, o->nights, o->since, headline, 0 };
	for (int i = 0; o->cfg && i < o->cfg->n_headline_metrics; i++)
		headline[to.nheadline++] = o->cfg->headline_metrics[i];
	struct trend *t = calloc((size_t)(p.n ? p.n : 1), sizeof(*t));
	if (!t)
		abort();
	int rc = 0, regressed = 0;
	for (int i = 0; i < p.n && !rc; i++) {
		if (trend_load(db, p.suite[i], p.fingerprint[i], &to, &t[i]) < 0)
			rc = 2;
		trend_changepoints(&t[i]);
		regressed += trend_check(&t[i], k);
	}
	if (!rc && o->json)
		trend_json(stdout, t, p.n, k);
	else if (!rc && !o->quiet)
		for (int i = 0; i < p.n; i++)
			say_trend(&t[i], k);
	if (!rc && p.n && write_page(db, o, t, p.n, page, plen) < 0)
		rb_warn("trend: the page could not be written");
	if (p.more)
		rb_warn("trend: %d more suites not shown (at most %d, names at most 95 bytes)", p.more, TREND_MAX_SUITES);
	for (int i = 0; i < p.n; i++)
		trend_free(&t[i]);
	free(t);
	if (!rc && o->check && !o->quiet)
		printf("trend --check: %d series changed for the worse within the last %d nights\n", regressed, k);
	return rc ? rc : o->check && regressed ? 1 : 0;
}
