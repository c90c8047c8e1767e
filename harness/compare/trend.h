/* A suite's nights in order (the nightly's runs of one suite on one
 * machine fingerprint), per (workload, users, metric): each night's
 * median with its min-max spread, the nights the verdicts flagged, the
 * baseline's band, and the change points across nights (changepoint.h)
 * with the nights either side and what changed between them. Read from
 * the database (db/nights.h); report/ draws it, jobs/ runs it. */
#ifndef RMAPBENCH_TREND_H
#define RMAPBENCH_TREND_H

#include <stdbool.h>
#include <stdint.h>

#include "changepoint.h"
#include "db.h"

/* A change point is kept at p below TREND_P (Welch), a shift past the
 * metric's floor (compare/metrics.c), and past TREND_NOISE_GATE times the
 * series' median move from one night to the next: real nights here are
 * noisier than any t-test's model of them (the Welch test alone dated 20
 * changes in 509 series of plain nights). */
#define TREND_P 0.01
#define TREND_NOISE_GATE 3.0
#define TREND_MIN_SEG 2
#define TREND_MAX_CPS 8
#define TREND_CHECK_NIGHTS 5 /* trend --check's K, unless the config's trend_check_nights */

struct trend_night {
	int64_t run;
	char date[32], revision[48], kernel[160], config_hash[20], status[16];
	int flags, not_confirmed, confirm_runs;
	bool regressed, baseline;
};

enum trend_cp_kind { CP_REGRESSION, CP_IMPROVEMENT, CP_CHANGED };

struct trend_cp {
	int night, prev;   /* the first night after the change, the last before (indexes of nights) */
	struct changepoint cp; /* over the series' own nights */
	double rel, rel_lo, rel_hi; /* the shift and its interval, relative to the mean before */
	enum trend_cp_kind kind;
};

struct trend_series {
	char *workload, *metric;
	char unit[24];
	long users;
	double *med, *lo, *hi; /* per night; NaN where the night has no value */
	char *flag;            /* per night: 0, 'r' a regression, 'n' not confirmed */
	int flagged;           /* nights flagged */
	double band_lo, band_hi; /* the baseline night's spread; NaN when not among the nights */
	struct trend_cp cps[TREND_MAX_CPS];
	int ncps;
	bool headline;
};

struct trend {
	char suite[96], fingerprint[320];
	struct trend_night *nights;
	int nn;
	struct trend_series *series;
	int ns, cap;
	int64_t baseline;
	bool pinned;
};

struct trend_opts {
	const char *metric; /* only this metric; NULL: all */
	int nights;         /* only the newest N; 0: all */
	const char *since;  /* only nights from this date (YYYY-MM-DD...); NULL: all */
	const char *const *headline; /* the suite's headline metrics, always shown */
	int nheadline;
};

/* The suite's nights on fingerprint into t (zeroed first): 0, -1 a
 * database error (said). */
int trend_load(struct db *db, const char *suite, const char *fingerprint, const struct trend_opts *o, struct trend *t);
/* The change points of every series, gated as above. */
void trend_changepoints(struct trend *t);
/* How many series' newest change point is a regression at one of the
 * last k nights. */
int trend_check(const struct trend *t, int k);
/* A series worth a figure: a headline metric, ever flagged, or changed. */
bool trend_series_shown(const struct trend_series *s);
const char *trend_cp_name(enum trend_cp_kind k);
void trend_free(struct trend *t);

#endif
