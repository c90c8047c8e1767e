/* Verdicts between two sides, A (the baseline) and B, each one run or a
 * set of runs (pooled as repetitions), possibly from different databases:
 * a row per (workload, users, metric) that either side has.
 *
 *  - a count the engine reproduces exactly (metrics.c) is compared
 *    exactly: any difference is a verdict;
 *  - a measured metric is tested over the repetitions: Mann-Whitney U
 *    (exact up to 20 a side), the Hodges-Lehmann shift with its 95%
 *    interval, and Benjamini-Hochberg over every tested row; a verdict
 *    needs q < 0.05, an interval that excludes 0 and a change of at least
 *    the metric's floor;
 *  - a row only one side has, or unavailable on one side, is said so;
 *  - a benchmark's times (metrics.c's drifting rows), when a metric has
 *    at least DRIFT_MIN_ROWS of them, are tested with B's values divided
 *    by that metric's drift: the median over its rows of B's median
 *    against A's. Two runs minutes apart on a shared machine differ in
 *    every row alike (the nightly test's A/A nights by up to 2x), which a
 *    floor cannot tell from a change of the code; a design's change moves
 *    some rows and not others (legacy against avc: 4 rows slower, 7
 *    faster, 16 the same), and a row is judged against the rest. A change
 *    of every row alike is said as the drift, not as a verdict. */
#ifndef RMAPBENCH_VERDICT_H
#define RMAPBENCH_VERDICT_H

#include "comparison.h"

/* -1 on a database error (said). */
int compare_sides(const struct side *a, const struct side *b, struct comparison *out);
/* The drift of a metric's rows in c, or NULL when they were judged as
 * measured (too few rows, or not a benchmark's time). */
const struct drift *drift_of(const struct comparison *c, const char *metric);

#endif
