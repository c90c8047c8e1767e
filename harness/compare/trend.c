/* A suite's nights (trend.h):
 *
 *   load_nights    the nightly runs, oldest first, the newest N of them
 *   load_values    each (workload, users, metric) a series: a night's median and spread
 *   load_flags     what each night's verdicts flagged, per series
 *   load_band      the baseline night's spread
 *   gate           a change point kept past the floor and the nights' own noise
 */
#include "trend.h"
#include "metrics.h"
#include "nights.h"
#include "query.h"
#include "util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *trend_cp_name(enum trend_cp_kind k)
{
	static const char *const names[] = { "regression", "improvement", "changed" };
	return names[k];
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		abort();
	return p;
}

struct nights_acc {
	struct trend *t;
	int cap;
};

static int night_fn(void *arg, const struct db_night *n)
{
	struct nights_acc *a = arg;
	struct trend *t = a->t;
	if (t->nn == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		t->nights = realloc(t->nights, (size_t)a->cap * sizeof(*t->nights));
		if (!t->nights)
			abort();
	}
	struct trend_night *x = &t->nights[t->nn++];
	memset(x, 0, sizeof(*x));
	x->run = n->id;
	snprintf(x->date, sizeof(x->date), "%s", n->started_at ? n->started_at : "");
	snprintf(x->revision, sizeof(x->revision), "%s", n->revision ? n->revision : "");
	snprintf(x->kernel, sizeof(x->kernel), "%s", n->kernel ? n->kernel : "");
	snprintf(x->status, sizeof(x->status), "%s", n->status ? n->status : "");
	const char *text = n->config_text ? n->config_text : "";
	snprintf(x->config_hash, sizeof(x->config_hash), "%08" PRIx32, (uint32_t)(rb_fnv1a64(text, strlen(text)) >> 32));
	x->flags = n->flags;
	x->not_confirmed = n->not_confirmed;
	x->confirm_runs = n->confirm_runs;
	x->regressed = n->verdict && !strcmp(n->verdict, "regressed");
	return 0;
}

static int load_nights(struct db *db, struct trend *t, const struct trend_opts *o)
{
	struct nights_acc a = { t, 0 };
	if (db_nights_each(db, t->suite, t->fingerprint, o->since, night_fn, &a) < 0)
		return -1;
	if (o->nights > 0 && t->nn > o->nights) { /* the newest N */
		memmove(t->nights, t->nights + (t->nn - o->nights), (size_t)o->nights * sizeof(*t->nights));
		t->nn = o->nights;
	}
	return 0;
}

/* The index of run among the nights (sorted by run id), or -1. */
static int night_index(const struct trend *t, int64_t run)
{
	int lo = 0, hi = t->nn - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (t->nights[mid].run == run)
			return mid;
		if (t->nights[mid].run < run)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static struct trend_series *series_add(struct trend *t, const char *workload, long users, const char *metric,
				       const char *unit)
{
	if (t->ns == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->series = realloc(t->series, (size_t)t->cap * sizeof(*t->series));
		if (!t->series)
			abort();
	}
	struct trend_series *s = &t->series[t->ns++];
	memset(s, 0, sizeof(*s));
	s->workload = strdup(workload);
	s->metric = strdup(metric);
	if (!s->workload || !s->metric)
		abort();
	snprintf(s->unit, sizeof(s->unit), "%s", unit ? unit : "");
	s->users = users;
	s->med = xcalloc((size_t)t->nn, sizeof(double));
	s->lo = xcalloc((size_t)t->nn, sizeof(double));
	s->hi = xcalloc((size_t)t->nn, sizeof(double));
	s->flag = xcalloc((size_t)t->nn, 1);
	for (int i = 0; i < t->nn; i++)
		s->med[i] = s->lo[i] = s->hi[i] = NAN;
	s->band_lo = s->band_hi = NAN;
	return s;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

struct values_acc {
	struct trend *t;
	const char *metric;
	struct trend_series *cur;
	int night;     /* the night the buffer holds values of; -1 none */
	double *buf;
	int n, cap;
};

static void flush_night(struct values_acc *a)
{
	if (a->cur && a->night >= 0 && a->n) {
		qsort(a->buf, (size_t)a->n, sizeof(double), cmp_double);
		double med = a->n % 2 ? a->buf[a->n / 2] : (a->buf[a->n / 2 - 1] + a->buf[a->n / 2]) / 2;
		a->cur->med[a->night] = med;
		a->cur->lo[a->night] = a->buf[0];
		a->cur->hi[a->night] = a->buf[a->n - 1];
	}
	a->n = 0;
}

static int value_fn(void *arg, const struct db_night_value *v)
{
	struct values_acc *a = arg;
	if (a->metric && strcmp(a->metric, v->metric))
		return 0;
	int night = night_index(a->t, v->run);
	if (night < 0 || !isfinite(v->value))
		return 0;
	struct trend_series *s = a->cur;
	if (!s || s->users != v->users || strcmp(s->workload, v->workload) || strcmp(s->metric, v->metric)) {
		flush_night(a);
		a->cur = series_add(a->t, v->workload, v->users, v->metric, v->unit);
		a->night = -1;
	}
	if (night != a->night) {
		flush_night(a);
		a->night = night;
	}
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->buf = realloc(a->buf, (size_t)a->cap * sizeof(double));
		if (!a->buf)
			abort();
	}
	a->buf[a->n++] = v->value;
	return 0;
}

static struct trend_series *series_find(struct trend *t, const char *workload, long users, const char *metric)
{
	for (int i = 0; i < t->ns; i++)
		if (t->series[i].users == users && !strcmp(t->series[i].metric, metric) &&
		    !strcmp(t->series[i].workload, workload))
			return &t->series[i];
	return NULL;
}

static int flag_fn(void *arg, const struct db_night_flag *f)
{
	struct trend *t = arg;
	int night = night_index(t, f->run);
	struct trend_series *s = night < 0 ? NULL : series_find(t, f->workload, f->users, f->metric);
	if (s && !s->flag[night])
		s->flagged++;
	if (s) /* a confirmed regression outranks a row that did not repeat */
		s->flag[night] = !strcmp(f->verdict, "regression") || s->flag[night] == 'r' ? 'r' : 'n';
	return 0;
}

static void mark_headlines(struct trend *t, const struct trend_opts *o)
{
	for (int i = 0; i < t->ns; i++)
		for (int h = 0; h < o->nheadline; h++)
			if (!strcmp(t->series[i].metric, o->headline[h]))
				t->series[i].headline = true;
}

static void load_band(struct db *db, struct trend *t)
{
	int pinned = 0;
	int64_t base = 0;
	if (db_baseline_find(db, t->suite, t->fingerprint, NULL, INT64_MAX, &base, &pinned) != 1)
		return;
	t->baseline = base;
	t->pinned = pinned;
	int night = night_index(t, base);
	if (night < 0)
		return;
	t->nights[night].baseline = true;
	for (int i = 0; i < t->ns; i++) {
		t->series[i].band_lo = t->series[i].lo[night];
		t->series[i].band_hi = t->series[i].hi[night];
	}
}

int trend_load(struct db *db, const char *suite, const char *fingerprint, const struct trend_opts *o, struct trend *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->suite, sizeof(t->suite), "%s", suite);
	snprintf(t->fingerprint, sizeof(t->fingerprint), "%s", fingerprint);
	struct values_acc a = { .t = t, .metric = o->metric, .night = -1 };
	int rc = load_nights(db, t, o);
	if (!rc && t->nn)
		rc = db_night_values_each(db, suite, fingerprint, o->since, value_fn, &a);
	flush_night(&a);
	free(a.buf);
	if (!rc && t->nn)
		rc = db_night_flags_each(db, suite, fingerprint, o->since, flag_fn, t);
	if (rc < 0) {
		rb_error("trend: %s: %s", db->path, db_errmsg(db));
		return -1;
	}
	mark_headlines(t, o);
	load_band(db, t);
	return 0;
}

/* The median move from one night to the next: the series' own noise. */
static double median_move(const double *v, int n)
{
	if (n < 2)
		return 0;
	double *d = xcalloc((size_t)n - 1, sizeof(double));
	for (int i = 1; i < n; i++)
		d[i - 1] = fabs(v[i] - v[i - 1]);
	qsort(d, (size_t)n - 1, sizeof(double), cmp_double);
	double m = (n - 1) % 2 ? d[(n - 1) / 2] : (d[(n - 1) / 2 - 1] + d[(n - 1) / 2]) / 2;
	free(d);
	return m;
}

static bool gate(const struct trend_series *s, const struct changepoint *c, double noise)
{
	const struct metric_rule *r = metric_rule(s->metric);
	double rel = c->before != 0 ? fabs(c->shift / c->before) : (c->shift != 0 ? INFINITY : 0);
	return c->p < TREND_P && rel >= r->min_effect && rel > 0 && fabs(c->shift) > TREND_NOISE_GATE * noise;
}

static void series_changepoints(struct trend_series *s, int nn)
{
	double *v = xcalloc((size_t)nn, sizeof(double));
	int *at = xcalloc((size_t)nn, sizeof(int)), n = 0;
	for (int i = 0; i < nn; i++)
		if (isfinite(s->med[i])) {
			v[n] = s->med[i];
			at[n++] = i;
		}
	struct changepoint cps[TREND_MAX_CPS];
	int found = changepoints_find(v, n, TREND_P, TREND_MIN_SEG, cps, TREND_MAX_CPS);
	double noise = median_move(v, n);
	int better = metric_rule(s->metric)->better;
	s->ncps = 0;
	for (int i = 0; i < found; i++) {
		if (!gate(s, &cps[i], noise))
			continue;
		struct trend_cp *x = &s->cps[s->ncps++];
		x->cp = cps[i];
		x->night = at[cps[i].at];
		x->prev = at[cps[i].at - 1];
		double base = cps[i].before != 0 ? fabs(cps[i].before) : 1;
		x->rel = cps[i].shift / base;
		x->rel_lo = cps[i].lo / base;
		x->rel_hi = cps[i].hi / base;
		x->kind = !better ? CP_CHANGED : (cps[i].shift * better < 0) ? CP_REGRESSION : CP_IMPROVEMENT;
	}
	free(v);
	free(at);
}

void trend_changepoints(struct trend *t)
{
	for (int i = 0; i < t->ns; i++)
		series_changepoints(&t->series[i], t->nn);
}

int trend_check(const struct trend *t, int k)
{
	int n = 0;
	for (int i = 0; i < t->ns; i++) {
		const struct trend_series *s = &t->series[i];
		if (s->ncps && s->cps[s->ncps - 1].kind == CP_REGRESSION && s->cps[s->ncps - 1].night >= t->nn - k)
			n++;
	}
	return n;
}

bool trend_series_shown(const struct trend_series *s)
{
	return s->headline || s->ncps || s->flagged;
}

void trend_free(struct trend *t)
{
	for (int i = 0; i < t->ns; i++) {
		free(t->series[i].workload);
		free(t->series[i].metric);
		free(t->series[i].med);
		free(t->series[i].lo);
		free(t->series[i].hi);
		free(t->series[i].flag);
	}
	free(t->series);
	free(t->nights);
	memset(t, 0, sizeof(*t));
}
