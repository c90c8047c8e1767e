#include "verdict.h"
#include "signatures.h"
#include "metrics.h"
#include "query.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VALUES 1024

/* A row's values on each side, fetched by one phase at a time */
static double va[MAX_VALUES], vb[MAX_VALUES];



struct collect {
	struct comparison *c;
	int side;
};

static int note_key(void *arg, const struct db_metric_stats *m)
{
	struct collect *k = arg;
	if (!m->workload || !m->metric)
		return 0;
	struct verdict_row *r = comparison_row(k->c, m->workload, m->users, m->metric);
	if (m->unit && !r->unit[0])
		snprintf(r->unit, sizeof(r->unit), "%s", m->unit);
	if (k->side == 0)
		r->na = 1; /* seen on A; counted for real below */
	else
		r->nb = 1;
	return 0;
}

/* A side's values of one row, pooled over its runs. */
static int values_of(const struct side *s, const struct verdict_row *r, double *v, int cap)
{
	int n = 0;
	for (int i = 0; i < s->nruns && n < cap; i++) {
		int k = db_point_values(s->db, s->runs[i], r->workload, r->users, r->metric, v + n, cap - n);
		if (k < 0)
			return -1;
		n += k;
	}
	return n;
}

/* The engine's counts are exact in its own runs and in the benchmarks'
 * (whose host counters have rules that are not exact). */
static int all_engine(const struct side *s)
{
	int ok = 1;
	for (int i = 0; i < s->nruns && ok; i++) {
		char target[16] = "";
		db_run_target(s->db, s->runs[i], target, sizeof(target));
		ok = !strcmp(target, "engine") || !strcmp(target, "bench");
	}
	return ok;
}

static double median(double *v, int n)
{
	for (int i = 1; i < n; i++) /* insertion sort: repetitions are few */
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static enum verdict_kind directed(int better, double shift)
{
	if (!better)
		return V_CHANGED;
	return better * shift > 0 ? V_IMPROVEMENT : V_REGRESSION;
}

static void test_row(struct verdict_row *r, const double *va, int na, const double *vb, int nb)
{
	double u;
	stats_mann_whitney(va, na, vb, nb, &u, &r->p);
	stats_hodges_lehmann(va, na, vb, nb, 0.95, &r->shift, &r->lo, &r->hi);
	r->tested = true;
}

const struct drift *drift_of(const struct comparison *c, const char *metric)
{
	for (int k = 0; k < c->ndrift; k++)
		if (!strcmp(c->drift[k].metric, metric))
			return &c->drift[k];
	return NULL;
}

/* Each drifting metric's ratio, B against A, over its rows to be tested
 * (deferred, nd of them): the median of their medians' ratios, when it
 * has DRIFT_MIN_ROWS. */
static void find_drifts(struct comparison *c, const int *deferred, int nd)
{
	double *ratio = malloc((size_t)(nd ? nd : 1) * sizeof(double));
	if (!ratio)
		abort();
	for (int k = 0; k < nd; k++) {
		const struct verdict_row *r = &c->rows[deferred[k]];
		if (drift_of(c, r->metric) || c->ndrift == DRIFT_MAX_METRICS)
			continue;
		int n = 0;
		for (int j = k; j < nd; j++) {
			const struct verdict_row *o = &c->rows[deferred[j]];
			if (!strcmp(o->metric, r->metric) && o->median_a > 0 && o->median_b > 0)
				ratio[n++] = o->median_b / o->median_a;
		}
		if (n < DRIFT_MIN_ROWS)
			continue;
		struct drift *d = &c->drift[c->ndrift++];
		d->metric = r->metric;
		d->ratio = median(ratio, n);
		d->rows = n;
	}
	free(ratio);
}

/* What the phases of compare_sides hand on: the rows tested (their p in
 * order) and the rows whose test waits for their metric's drift. */
struct work {
	const struct side *a, *b;
	struct comparison *out;
	bool exact;                /* both sides' runs are the engine's */
	double *p;
	int *tested, nt;
	int *deferred, nd;
};

/* Gather: every (workload, users, metric) either side has, a row each. */
static int gather(const struct side *a, const struct side *b, struct comparison *out)
{
	const struct side *sides[2] = { a, b };
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < sides[s]->nruns; i++) {
			struct collect k = { out, s };
			if (db_metric_stats_each(sides[s]->db, sides[s]->runs[i], note_key, &k) < 0) {
				rb_error("%s: %s", sides[s]->db->path, db_errmsg(sides[s]->db));
				return -1;
			}
		}
	return 0;
}

/* A row one side lacks: said so, with the reason the other recorded. */
static void only_one_side(struct work *w, struct verdict_row *r, double *va, int na, double *vb, int nb)
{
	r->kind = !na ? V_ONLY_B : V_ONLY_A;
	const struct side *missing = !na ? w->a : w->b;
	char why[200] = "";
	for (int k = 0; k < missing->nruns && !why[0]; k++)
		db_unavailable_reason(missing->db, missing->runs[k], r->metric, why, sizeof(why));
	snprintf(r->note, sizeof(r->note), "%s %s", why[0] ? "unavailable there:" : "not measured there", why);
	if (na)
		r->median_a = median(va, na);
	if (nb)
		r->median_b = median(vb, nb);
}

/* The engine's exact counts: the same or not, no test. */
static void exact_counts(struct verdict_row *r, const struct metric_rule *rule, const double *va, int na,
			 const double *vb, int nb)
{
	r->exact = true;
	int differ = na != nb;
	for (int k = 0; k < na && !differ; k++)
		differ = va[k] != vb[k];
	r->shift = r->median_b - r->median_a;
	r->kind = differ ? directed(rule->better, r->shift) : V_SAME;
	snprintf(r->note, sizeof(r->note), "exact counts: %s", differ ? "they differ" : "identical");
}

/* Kernel errors and failed checks: some on one side where the other had
 * none are the verdict, whatever the repetitions; some on both are the
 * same bug seen at another rate, reported, not judged. */
static void appearance(struct verdict_row *r, const double *va, int na, const double *vb, int nb)
{
	double sa = 0, sb = 0;
	for (int k = 0; k < na; k++)
		sa += va[k];
	for (int k = 0; k < nb; k++)
		sb += vb[k];
	r->kind = (sa > 0) == (sb > 0) ? V_SAME : sb > 0 ? V_REGRESSION : V_IMPROVEMENT;
	r->shift = sb - sa;
	snprintf(r->note, sizeof(r->note), "by appearance: %g in A's %d points, %g in B's %d%s", sa, na, sb, nb,
		 sa > 0 && sb > 0 ? " (both show it: not judged)" : "");
}

/* A share row a side lacks where that side profiled the same workload
 * and users: the function was below the rows' cut there, 0% in each of
 * its profiled points. How many zeros into v (0: not profiled). */
static int absent_share(const struct side *s, const struct verdict_row *r, double *v, int cap)
{
	struct verdict_row probe = *r;
	probe.metric = "profile_samples";
	int n = values_of(s, &probe, v, cap);
	for (int k = 0; k < n; k++)
		v[k] = 0;
	return n;
}

/* Classify: each row only on one side, exact, too few to test, tested
 * now, or deferred until its metric's drift is known. */
static int classify(struct work *w)
{
	for (int i = 0; i < w->out->n; i++) {
		struct verdict_row *r = &w->out->rows[i];
		if (r->decided)
			continue;
		const struct metric_rule *rule = metric_rule(r->metric);
		int na = r->na ? values_of(w->a, r, va, MAX_VALUES) : 0;
		int nb = r->nb ? values_of(w->b, r, vb, MAX_VALUES) : 0;
		if (na < 0 || nb < 0)
			return -1;
		if (rule->points && !na)
			na = absent_share(w->a, r, va, MAX_VALUES);
		else if (rule->points && !nb)
			nb = absent_share(w->b, r, vb, MAX_VALUES);
		if (na < 0 || nb < 0)
			return -1;
		r->na = na;
		r->nb = nb;
		if (!na || !nb) {
			only_one_side(w, r, va, na, vb, nb);
			continue;
		}
		r->median_a = median(va, na);
		r->median_b = median(vb, nb);
		r->change = r->median_a != 0 ? (r->median_b - r->median_a) / fabs(r->median_a) : 0;
		if (w->exact && rule->exact) {
			exact_counts(r, rule, va, na, vb, nb);
			continue;
		}
		if (rule->appears) {
			appearance(r, va, na, vb, nb);
			continue;
		}
		/* A row whose sample sizes cannot reach the level at all is
		 * not "the same": no difference could have been seen. */
		double pmin = stats_mann_whitney_min_p(na, nb);
		if (na < 2 || nb < 2 || pmin >= VERDICT_ALPHA) {
			r->kind = V_TOO_FEW;
			snprintf(r->note, sizeof(r->note),
				 "n = %d and %d: Mann-Whitney cannot go below p = %.2g; %d a side can reach %g", na, nb,
				 pmin, stats_mann_whitney_min_n(VERDICT_ALPHA), VERDICT_ALPHA);
			continue;
		}
		if (rule->drifts) { /* tested once the drift of its metric is known */
			w->deferred[w->nd++] = i;
			continue;
		}
		test_row(r, va, na, vb, nb);
		w->p[w->nt] = r->p;
		w->tested[w->nt++] = i;
	}
	return 0;
}

/* Test: the deferred rows, B's drift of their metric taken off. */
static int test_deferred(struct work *w)
{
	find_drifts(w->out, w->deferred, w->nd);
	for (int k = 0; k < w->nd; k++) {
		int i = w->deferred[k];
		struct verdict_row *r = &w->out->rows[i];
		/* fetched again rather than kept: a few dozen benchmark rows */
		int na = values_of(w->a, r, va, MAX_VALUES), nb = values_of(w->b, r, vb, MAX_VALUES);
		if (na < 0 || nb < 0)
			return -1;
		const struct drift *d = drift_of(w->out, r->metric);
		if (d) {
			for (int j = 0; j < nb; j++)
				vb[j] /= d->ratio;
			r->change = r->median_a != 0 ? (r->median_b / d->ratio - r->median_a) / fabs(r->median_a) : 0;
		}
		test_row(r, va, na, vb, nb);
		w->p[w->nt] = r->p;
		w->tested[w->nt++] = i;
	}
	return 0;
}

/* Correct: Benjamini-Hochberg in two families, the rows of metrics with
 * a better direction (the ones that can be regressions) and the rest
 * (which can only be "changed"): counters that can never be a regression
 * do not dilute the test of those that can. q[k] for tested row k. */
static void correct(const struct work *w, double *q)
{
	int n = w->nt ? w->nt : 1;
	double *fp = malloc((size_t)n * sizeof(double)), *fq = malloc((size_t)n * sizeof(double));
	int *fi = malloc((size_t)n * sizeof(int));
	if (!fp || !fq || !fi)
		abort();
	for (int directed_family = 0; directed_family < 2; directed_family++) {
		int nf = 0;
		for (int k = 0; k < w->nt; k++)
			if ((metric_rule(w->out->rows[w->tested[k]].metric)->better != 0) == directed_family) {
				fp[nf] = w->p[k];
				fi[nf++] = k;
			}
		stats_bh(fp, nf, fq);
		for (int k = 0; k < nf; k++)
			q[fi[k]] = fq[k];
	}
	free(fp);
	free(fq);
	free(fi);
}

/* Decide: a tested row is a regression or an improvement only when it is
 * significant after correction, its interval excludes 0 and its effect
 * reaches its metric's floor. */
static void decide(const struct work *w, const double *q)
{
	for (int k = 0; k < w->nt; k++) {
		struct verdict_row *r = &w->out->rows[w->tested[k]];
		const struct metric_rule *rule = metric_rule(r->metric);
		r->q = q[k];
		double effect = rule->points	   ? fabs(r->shift) /* percentage points */
				: r->median_a != 0 ? fabs(r->shift) / fabs(r->median_a)
						   : (r->shift != 0 ? INFINITY : 0);
		bool excludes0 = r->lo > 0 || r->hi < 0;
		const struct drift *d = rule->drifts ? drift_of(w->out, r->metric) : NULL;
		char against[64] = "";
		if (d)
			snprintf(against, sizeof(against), ", B's drift x%.3g taken off", d->ratio);
		if (r->q < VERDICT_ALPHA && excludes0 && effect >= rule->min_effect) {
			r->kind = directed(rule->better, r->shift);
			snprintf(r->note, sizeof(r->note), "q = %.3g, shift %.4g [%.4g, %.4g]%s", r->q, r->shift, r->lo, r->hi,
				 against);
		} else {
			r->kind = V_SAME;
			snprintf(r->note, sizeof(r->note), "%s (q = %.3g, shift %.4g [%.4g, %.4g]%s)",
				 r->q >= VERDICT_ALPHA ? "not significant" : !excludes0 ? "interval spans 0" : "below the floor",
				 r->q, r->shift, r->lo, r->hi, against);
		}
	}
	for (int i = 0; i < w->out->n; i++)
		w->out->counts[w->out->rows[i].kind]++;
}

int compare_sides(const struct side *a, const struct side *b, struct comparison *out)
{
	memset(out, 0, sizeof(*out));
	if (gather(a, b, out) < 0 || signatures_compare(a, b, out) < 0)
		return -1;
	size_t n = (size_t)(out->n ? out->n : 1);
	struct work w = { .a = a, .b = b, .out = out, .exact = all_engine(a) && all_engine(b),
			  .p = malloc(n * sizeof(double)), .tested = malloc(n * sizeof(int)),
			  .deferred = malloc(n * sizeof(int)) };
	double *q = malloc(n * sizeof(double));
	if (!w.p || !w.tested || !w.deferred || !q)
		abort();
	int rc = classify(&w) < 0 || test_deferred(&w) < 0 ? -1 : 0;
	if (rc == 0) {
		correct(&w, q);
		decide(&w, q);
	}
	free(q);
	free(w.p);
	free(w.tested);
	free(w.deferred);
	return rc;
}



