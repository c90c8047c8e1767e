/* Change points of a series (a metric's nightly medians, oldest first):
 * E-Divisive means, the method MongoDB's performance CI published (Daly
 * et al., "The Use of Change Point Detection to Identify Software
 * Performance Regressions in a Continuous Integration System", ICPE 2020;
 * Matteson and James, JASA 2014) and Hunter/Otava run (Fleming et al.,
 * ICPE 2023). Each round takes, over every segment between the change
 * points found so far, the split that maximises the energy statistic
 * q-hat (alpha = 1); it is kept when Welch's t-test between the two sides
 * of its segment gives p below the level, else the search ends. Hunter's
 * t-test in place of the original permutation test: deterministic (the
 * same history gives the same answer in CI) and O(n) a test; q-hat is
 * found in O(n^2) a segment, incrementally.
 *
 * Why E-Divisive: it needs no model of the noise, dates a step to its
 * night and splits a slow drift into steps that a night-against-baseline
 * verdict never sees; it needs min_seg values either side of a change,
 * so the newest min_seg - 1 nights cannot carry one yet. */
#ifndef RMAPBENCH_CHANGEPOINT_H
#define RMAPBENCH_CHANGEPOINT_H

struct changepoint {
	int at;              /* index of the first value after the change */
	int from, to;        /* the segment it split: [from, to) */
	double before, after; /* the means either side, within the segment */
	double shift, lo, hi; /* after - before, with its 95% Welch interval */
	double p, q_hat;
};

/* The change points of v[0..n), sorted by at: how many, at most cap. */
int changepoints_find(const double *v, int n, double p_level, int min_seg, struct changepoint *out, int cap);

#endif
