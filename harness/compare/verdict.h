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

#include <stdbool.h>
#include <stdint.h>

#include "db.h"

#define SIDE_MAX_RUNS 16
/* The false-discovery level of a verdict (Benjamini-Hochberg's q). */
#define VERDICT_ALPHA 0.05

struct side {
	struct db *db;
	int64_t runs[SIDE_MAX_RUNS];
	int nruns;
	char label[128];
};

enum verdict_kind {
	V_REGRESSION,
	V_IMPROVEMENT,
	V_CHANGED,      /* a real change of a metric with no better direction */
	V_SAME,         /* no difference (exact), or none that passes the test */
	V_TOO_FEW,      /* too few repetitions for the test to reach
			 * VERDICT_ALPHA (3 a side cannot): not tested */
	V_ONLY_A,
	V_ONLY_B,
};

struct verdict_row {
	char *workload, *metric; /* whole, however long (freed with the comparison) */
	char unit[24];
	long users;
	int na, nb;
	double median_a, median_b, change;   /* change: relative, B against A */
	double shift, lo, hi, p, q;          /* Hodges-Lehmann, Mann-Whitney, BH */
	bool exact, tested;
	enum verdict_kind kind;
	char note[240];
};

#define DRIFT_MIN_ROWS 8
#define DRIFT_MAX_METRICS 4

struct drift {
	const char *metric; /* a row's */
	double ratio;   /* B's times against A's, every row alike */
	int rows;
};

struct comparison {
	struct verdict_row *rows;
	int n, cap;
	int counts[V_ONLY_B + 1];
	struct drift drift[DRIFT_MAX_METRICS];
	int ndrift;
	/* Set by the caller, read by every output. expect: a positive
	 * control (a known-bad B against a good A), whose regressions are
	 * expected and which fails only when it shows none of this metric.
	 * unjudged: no comparison was made (a first night), and why. */
	char expect[64];
	char unjudged[240];
};

const char *verdict_name(enum verdict_kind k);
/* -1 on a database error (said). */
int compare_sides(const struct side *a, const struct side *b, struct comparison *out);
void comparison_free(struct comparison *c);
/* The drift of a metric's rows in c, or NULL when they were judged as
 * measured (too few rows, or not a benchmark's time). */
const struct drift *drift_of(const struct comparison *c, const char *metric);
/* Whether c has a regression of metric in any row. */
bool comparison_regressed_on(const struct comparison *c, const char *metric);
/* The regressions that fail a CI job: none of a positive control's, and
 * one for a control that did not see its regression. */
int comparison_failures(const struct comparison *c);

#endif
