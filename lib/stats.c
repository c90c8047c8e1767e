#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_mean(const double *v, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

double stats_var(const double *v, int n)
{
	if (n < 2)
		return 0;
	double m = stats_mean(v, n), s = 0;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s / (n - 1);
}

int stats_welch(const double *a, int na, const double *b, int nb, struct welch *w)
{
	if (na < 2 || nb < 2)
		return -1;
	double va = stats_var(a, na) / na, vb = stats_var(b, nb) / nb;
	double diff = stats_mean(b, nb) - stats_mean(a, na);
	memset(w, 0, sizeof(*w));
	if (va + vb == 0) {
		w->no_variance = 1;
		w->p = diff == 0 ? 1 : 0;
		return 0;
	}
	w->t = diff / sqrt(va + vb);
	w->df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	return 0;
}

struct ranked {
	double v;
	int side;
};

static int by_value(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;
	return (a > b) - (a < b);
}

/* The number of ways k of the ranks 1..n sum to s, for the exact
 * distribution of U; counts as doubles (C(40,20) is about 1.4e11). */
static double *rank_sum_counts(int n, int k, int maxs)
{
	/* c[j][s]: ways to pick j ranks from those seen summing to s */
	double *c = calloc((size_t)(k + 1) * (size_t)(maxs + 1), sizeof(double));
	if (!c)
		return NULL;
	c[0] = 1;
	for (int r = 1; r <= n; r++)
		for (int j = (r < k ? r : k); j >= 1; j--)
			for (int s = maxs; s >= r; s--)
				c[j * (maxs + 1) + s] += c[(j - 1) * (maxs + 1) + s - r];
	return c;
}

int stats_mann_whitney(const double *a, int na, const double *b, int nb, double *u, double *p)
{
	if (na < 1 || nb < 1)
		return -1;
	int n = na + nb;
	struct ranked *r = malloc((size_t)n * sizeof(*r));
	if (!r)
		return -1;
	for (int i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (int i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	qsort(r, (size_t)n, sizeof(*r), by_value);
	double ra = 0, tie_term = 0;
	int ties = 0;
	for (int i = 0; i < n;) {
		int j = i;
		while (j < n && r[j].v == r[i].v)
			j++;
		double mid = (i + 1 + j) / 2.0; /* midrank of positions i+1..j */
		for (int k = i; k < j; k++)
			if (r[k].side == 0)
				ra += mid;
		double t = j - i;
		tie_term += t * t * t - t;
		ties |= j - i > 1;
		i = j;
	}
	free(r);
	*u = ra - na * (na + 1) / 2.0;
	double mu = na * (double)nb / 2.0;
	if (!ties && na <= 20 && nb <= 20) {
		/* P(U <= u) and P(U >= u) from the rank-sum counts of a */
		int lo = na * (na + 1) / 2, maxs = lo + na * nb;
		double *c = rank_sum_counts(n, na, maxs);
		if (c) {
			double total = 0, le = 0, ge = 0;
			int s = (int)lround(ra);
			for (int x = lo; x <= maxs; x++) {
				double w = c[na * (maxs + 1) + x];
				total += w;
				if (x <= s)
					le += w;
				if (x >= s)
					ge += w;
			}
			free(c);
			double tail = (le < ge ? le : ge) / total;
			*p = fmin(1, 2 * tail);
			return 0;
		}
	}
	double sigma2 = na * (double)nb / 12.0 * ((n + 1) - tie_term / ((double)n * (n - 1)));
	if (sigma2 <= 0) {
		*p = 1;
		return 0;
	}
	double z = (fabs(*u - mu) - 0.5) / sqrt(sigma2); /* continuity correction */
	*p = fmin(1, 2 * gsl_cdf_ugaussian_Q(z > 0 ? z : 0));
	return 0;
}

static int by_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The largest c with P(U <= c) <= alpha / 2 under H0, or -1 when none. */
static long mw_critical(int na, int nb, double alpha)
{
	long mn = (long)na * nb;
	if (na <= 20 && nb <= 20) {
		int n = na + nb, lo = na * (na + 1) / 2, maxs = lo + na * nb;
		double *c = rank_sum_counts(n, na, maxs);
		if (c) {
			double total = 0, cum = 0;
			for (int x = lo; x <= maxs; x++)
				total += c[na * (maxs + 1) + x];
			long crit = -1;
			for (int x = lo; x <= maxs; x++) {
				cum += c[na * (maxs + 1) + x];
				if (cum / total > alpha / 2)
					break;
				crit = x - lo;
			}
			free(c);
			return crit;
		}
	}
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2);
	long crit = (long)floor(mn / 2.0 - z * sqrt(mn * (na + nb + 1) / 12.0));
	return crit >= 0 ? crit : -1;
}

int stats_hodges_lehmann(const double *a, int na, const double *b, int nb, double conf, double *shift, double *lo,
			 double *hi)
{
	if (na < 1 || nb < 1)
		return -1;
	size_t mn = (size_t)na * (size_t)nb;
	double *d = malloc(mn * sizeof(*d));
	if (!d)
		return -1;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			d[(size_t)i * nb + j] = b[j] - a[i];
	qsort(d, mn, sizeof(*d), by_double);
	*shift = mn % 2 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2;
	long c = mw_critical(na, nb, 1 - conf);
	if (c < 0) {
		*lo = d[0];
		*hi = d[mn - 1];
	} else {
		*lo = d[c];              /* the (c+1)-th smallest */
		*hi = d[mn - 1 - (size_t)c]; /* the (c+1)-th largest */
	}
	free(d);
	return 0;
}

struct ranked_p {
	double p;
	int i;
};

static int by_p(const void *x, const void *y)
{
	double a = ((const struct ranked_p *)x)->p, b = ((const struct ranked_p *)y)->p;
	return (a > b) - (a < b);
}

void stats_bh(const double *p, int n, double *q)
{
	struct ranked_p *r = malloc((size_t)(n > 0 ? n : 1) * sizeof(*r));
	if (!r) {
		for (int i = 0; i < n; i++)
			q[i] = 1;
		return;
	}
	for (int i = 0; i < n; i++)
		r[i] = (struct ranked_p){ p[i], i };
	qsort(r, (size_t)n, sizeof(*r), by_p);
	double next = 1;
	for (int k = n - 1; k >= 0; k--) {
		double v = r[k].p * n / (k + 1);
		next = v < next ? v : next;
		q[r[k].i] = next;
	}
	free(r);
}

void stats_wlinear(const double *x, const double *y, const double *w, int n, double *slope, double *icept,
		   double *r2)
{
	double c0 = 0, c1 = 0, cov00, cov01, cov11, chisq;
	*slope = *icept = 0;
	*r2 = 1;
	if (n < 2 || gsl_fit_wlinear(x, 1, w, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &chisq))
		return;
	*icept = c0;
	*slope = c1;
	double sw = 0, sy = 0, sst = 0, sse = 0;
	for (int i = 0; i < n; i++)
		sw += w[i], sy += w[i] * y[i];
	double mean = sw > 0 ? sy / sw : 0;
	for (int i = 0; i < n; i++) {
		double res = y[i] - (c1 * x[i] + c0);
		sse += w[i] * res * res;
		sst += w[i] * (y[i] - mean) * (y[i] - mean);
	}
	*r2 = sst > 0 ? 1 - sse / sst : 1;
}

double stats_mann_whitney_min_p(int na, int nb)
{
	if (na < 1 || nb < 1)
		return 1;
	return fmin(1, 2 * exp(-gsl_sf_lnchoose((unsigned)(na + nb), (unsigned)na)));
}

int stats_mann_whitney_min_n(double alpha)
{
	int n = 1;
	while (n < 1000 && stats_mann_whitney_min_p(n, n) >= alpha)
		n++;
	return n;
}
