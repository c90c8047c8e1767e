/* E-Divisive means with Hunter's t-test (changepoint.h). */
#include "changepoint.h"
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The best split of v[a, b): its index into *k and its q-hat, or -1 when
 * the segment is too short for min_seg either side. The sums of
 * distances within the left (sxx), within the right (syy) and across
 * (sxy) are kept as k moves right one value at a time. */
static double best_split(const double *v, int a, int b, int min_seg, int *k_out)
{
	if (b - a < 2 * min_seg)
		return -1;
	int k = a + min_seg;
	double sxx = 0, syy = 0, sxy = 0;
	for (int i = a; i < b; i++)
		for (int j = i + 1; j < b; j++) {
			double d = fabs(v[i] - v[j]);
			if (j < k)
				sxx += d;
			else if (i >= k)
				syy += d;
			else
				sxy += d;
		}
	double best = -1;
	for (;; k++) {
		double m = k - a, n = b - k;
		double e = 2 * sxy / (m * n) - (m > 1 ? 2 * sxx / (m * (m - 1)) : 0) -
			   (n > 1 ? 2 * syy / (n * (n - 1)) : 0);
		double q = m * n / (m + n) * e;
		if (q > best) {
			best = q;
			*k_out = k;
		}
		if (b - (k + 1) < min_seg)
			break;
		double dl = 0, dr = 0; /* v[k] moves from the right to the left */
		for (int i = a; i < k; i++)
			dl += fabs(v[i] - v[k]);
		for (int j = k + 1; j < b; j++)
			dr += fabs(v[j] - v[k]);
		sxx += dl;
		syy -= dr;
		sxy += dr - dl;
	}
	return best;
}

/* Welch's test of v[a, k) against v[k, b), into c: the p of a real
 * difference (two constant sides: 0 when they differ, 1 when not). */
static void welch_split(const double *v, int a, int k, int b, struct changepoint *c)
{
	struct welch w;
	int m = k - a, n = b - k;
	c->at = k;
	c->from = a;
	c->to = b;
	c->before = stats_mean(v + a, m);
	c->after = stats_mean(v + k, n);
	c->shift = c->after - c->before;
	if (stats_welch(v + a, m, v + k, n, &w) < 0 || w.no_variance) {
		c->p = c->shift != 0 ? 0 : 1;
		c->lo = c->hi = c->shift;
		return;
	}
	c->p = w.p;
	double se = sqrt(stats_var(v + a, m) / m + stats_var(v + k, n) / n);
	double t = gsl_cdf_tdist_Pinv(0.975, w.df);
	c->lo = c->shift - t * se;
	c->hi = c->shift + t * se;
}

static int by_at(const void *x, const void *y)
{
	return ((const struct changepoint *)x)->at - ((const struct changepoint *)y)->at;
}

int changepoints_find(const double *v, int n, double p_level, int min_seg, struct changepoint *out, int cap)
{
	int found = 0;
	if (min_seg < 2)
		min_seg = 2; /* Welch needs two values a side */
	while (found < cap) {
		/* the segments between the change points so far */
		int best_k = -1, best_a = 0, best_b = n;
		double best_q = -1;
		for (int s = 0; s <= found; s++) {
			int a = s ? out[s - 1].at : 0, b = s < found ? out[s].at : n, k = -1;
			double q = best_split(v, a, b, min_seg, &k);
			if (q > best_q) {
				best_q = q;
				best_k = k;
				best_a = a;
				best_b = b;
			}
		}
		if (best_k < 0)
			break;
		struct changepoint c;
		memset(&c, 0, sizeof(c));
		welch_split(v, best_a, best_k, best_b, &c);
		c.q_hat = best_q;
		if (!(c.p < p_level))
			break;
		out[found++] = c;
		qsort(out, (size_t)found, sizeof(*out), by_at);
	}
	return found;
}
