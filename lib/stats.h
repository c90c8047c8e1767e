/* Statistics over repetitions, the distributions from GSL. */
#ifndef RMAPBENCH_STATS_H
#define RMAPBENCH_STATS_H

double stats_mean(const double *v, int n);
/* The sample variance (n - 1); 0 for fewer than two values. */
double stats_var(const double *v, int n);

/* Welch's unequal-variance t-test, two-sided. */
struct welch {
	double t, df, p;
	int no_variance; /* both samples constant: t and p are meaningless */
};
/* -1 when either side has fewer than two values. */
int stats_welch(const double *a, int na, const double *b, int nb, struct welch *w);

/* The Mann-Whitney U test, two-sided: exact (ties shared, as midranks)
 * when both sides have at most 20 values and there are no ties, else the
 * normal approximation with the tie correction. p into *p, U of a into *u.
 * -1 when a side is empty. */
int stats_mann_whitney(const double *a, int na, const double *b, int nb, double *u, double *p);

/* The smallest two-sided p the exact Mann-Whitney test can give for
 * samples of na and nb values (every b above every a): 2 / C(na + nb, na).
 * Two a side cannot go below 0.33, three below 0.1. */
double stats_mann_whitney_min_p(int na, int nb);
/* The fewest values a side with which that smallest p is below alpha. */
int stats_mann_whitney_min_n(double alpha);

/* The Hodges-Lehmann shift of b against a (the median of every b - a) and
 * its confidence interval at CONF (0.95), from the Mann-Whitney
 * distribution (exact up to 20 values a side, normal beyond): the CI is
 * the whole range of differences when the samples are too small for CONF.
 * -1 when a side is empty. */
int stats_hodges_lehmann(const double *a, int na, const double *b, int nb, double conf, double *shift, double *lo,
			 double *hi);

/* Benjamini-Hochberg: q-values (adjusted p) of n p-values, in place order. */
void stats_bh(const double *p, int n, double *q);

/* Weighted least squares of y against x: y = icept + slope x, and the
 * weighted r^2. */
void stats_wlinear(const double *x, const double *y, const double *w, int n, double *slope, double *icept,
		   double *r2);

#endif
