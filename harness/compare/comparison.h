/* A comparison's rows, and the two sides they come from: the types every
 * part of compare/ shares (verdict.c makes the rows of the metrics,
 * signatures.c those of the kernel's error signatures; report/ prints
 * them), with the helpers that only hold them. */
#ifndef RMAPBENCH_COMPARISON_H
#define RMAPBENCH_COMPARISON_H

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
	V_NOT_CONFIRMED, /* a night's regression that did not repeat when its
			  * points were run again (harness/jobs/nightly_confirm.c) */
};

struct verdict_row {
	char *workload, *metric; /* whole, however long (freed with the comparison) */
	char unit[24];
	long users;
	int na, nb;
	double median_a, median_b, change;   /* change: relative, B against A */
	double shift, lo, hi, p, q;          /* Hodges-Lehmann, Mann-Whitney, BH */
	bool exact, tested;
	bool decided;  /* by its own rule before classification (a kernel error signature) */
	enum verdict_kind kind;
	char note[240];
	char *text;    /* what the row is about, whole (a kernel report), or NULL */
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
	int counts[V_NOT_CONFIRMED + 1];
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
/* The row of (workload, users, metric) in c, added when c has none. */
struct verdict_row *comparison_row(struct comparison *c, const char *workload, long users, const char *metric);
void comparison_free(struct comparison *c);
/* Whether c has a regression of metric in any row. */
bool comparison_regressed_on(const struct comparison *c, const char *metric);
/* The regressions that fail a CI job: none of a positive control's, and
 * one for a control that did not see its regression. */
int comparison_failures(const struct comparison *c);

#endif
