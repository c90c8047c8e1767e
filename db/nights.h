/* The nightly's history: what each night's verdicts flagged and what its
 * confirmation made of it, the runs that confirmed it, and the series the
 * trend reads back (harness/compare/trend.c). Every statement here; -1 on
 * a database error (db_errmsg says what). */
#ifndef RMAPBENCH_NIGHTS_H
#define RMAPBENCH_NIGHTS_H

#include <stdint.h>

#include "db.h"

/* A row night run's verdicts flagged: verdict "regression" or "not
 * confirmed", change relative (B against A). */
int db_night_flag_add(struct db *db, int64_t run, const char *workload, long users, const char *metric,
		      const char *verdict, double change);
/* run re-ran night's flagged points (a run tagged "confirm"). */
int db_run_set_confirms(struct db *db, int64_t run, int64_t night);

/* A nightly run of a suite, in order. kernel: a vm run's label, else the
 * host's release; flags and not_confirmed: its night_flags rows. */
struct db_night {
	int64_t id;
	const char *started_at, *revision, *kernel, *config_text, *fingerprint, *status, *verdict;
	int flags, not_confirmed, confirm_runs;
};
/* Every nightly run of suite (on machine fingerprint, NULL: any) since
 * the date (NULL: all), oldest first. */
int db_nights_each(struct db *db, const char *suite, const char *fingerprint, const char *since,
		   int (*fn)(void *, const struct db_night *), void *arg);
/* The suites and machines that have nightly runs, with how many. */
int db_night_suites_each(struct db *db, int (*fn)(void *, const char *suite, const char *fingerprint, int nights),
			 void *arg);

/* Every value of the done points of those nights (the same suite,
 * fingerprint and since), ordered by series (workload, users, metric),
 * then run. */
struct db_night_value {
	int64_t run;
	const char *workload, *metric, *unit;
	long users;
	double value;
};
int db_night_values_each(struct db *db, const char *suite, const char *fingerprint, const char *since,
			 int (*fn)(void *, const struct db_night_value *), void *arg);
/* The flags of those nights. */
struct db_night_flag {
	int64_t run;
	const char *workload, *metric, *verdict;
	long users;
	double change;
};
int db_night_flags_each(struct db *db, const char *suite, const char *fingerprint, const char *since,
			int (*fn)(void *, const struct db_night_flag *), void *arg);

#endif
