/* Reading results back: every query the harness makes, by name. Each
 * walks its rows through a callback whose strings live until it returns
 * (a NULL column is NULL); a callback returning non-zero stops the walk.
 * Every statement is checked: -1 on a database error, with db_errmsg()
 * saying what. */
#ifndef RMAPBENCH_QUERY_H
#define RMAPBENCH_QUERY_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "db.h"

const char *db_errmsg(struct db *db);

/* A runs row, with how many points it recorded. */
struct db_run {
	int64_t id;
	int npoints;
	const char *revision, *host, *kernel_release, *kernel_config_hash, *target, *variant, *config_name,
		*config_text, *started_at, *ended_at, *status, *note;
	const char *uuid, *fingerprint, *tag;
	const char *kernel_label; /* vm: the guest's kernel; NULL otherwise */
};
typedef int (*db_run_fn)(void *arg, const struct db_run *r);
int db_runs_each(struct db *db, db_run_fn fn, void *arg);
/* 1 when the run exists (fn saw it), 0 when not. */
int db_run_get(struct db *db, int64_t id, db_run_fn fn, void *arg);
/* The run's target (host, vm, engine, bench), "" when unknown. */
int db_run_target(struct db *db, int64_t id, char *buf, size_t len);
/* SPEC is a run id, "last" or "last~N" (the Nth before the newest): 1
 * with *id set, 0 when there is no such run. */
int db_run_resolve(struct db *db, const char *spec, int64_t *id);

/* n, mean, sample variance (NaN when n = 1), min and max of every
 * (workload, users, metric) of a run. */
struct db_metric_stats {
	const char *workload, *metric, *unit;
	long users;
	int n;
	double mean, var, min, max;
};
int db_metric_stats_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_metric_stats *), void *arg);

/* Metrics recorded as unavailable, with their reasons and in how many points. */
struct db_unavailable {
	const char *metric, *reason;
	int points;
};
int db_unavailable_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_unavailable *), void *arg);
/* The first reason recorded for METRIC, "" when none. */
int db_unavailable_reason(struct db *db, int64_t run, const char *metric, char *buf, size_t len);

/* Points that did not end done. */
struct db_point {
	int seq, repetition;
	const char *workload, *status, *error;
	long users;
};
int db_points_not_done_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_point *), void *arg);

/* The tidy stream of a run: a row per (point, metric), value or reason. */
struct db_tidy_row {
	int64_t point_id;
	const char *workload, *point_status, *metric, *unit, *reason;
	long users;
	int repetition;
	int unavailable;
	double value;
};
int db_tidy_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_tidy_row *), void *arg);

/* A metric over the done points of a run, per (workload, users), or per
 * users over every workload (workload NULL) with db_metric_by_users_all. */
struct db_users_stat {
	const char *workload;
	long users;
	double mean, min, max;
	int n;
};
typedef int (*db_users_fn)(void *arg, const struct db_users_stat *s);
int db_metric_by_users(struct db *db, int64_t run, const char *metric, db_users_fn fn, void *arg);
int db_metric_by_users_all(struct db *db, int64_t run, const char *metric, db_users_fn fn, void *arg);

/* The last run with this tag and config name whose config text holds
 * needle (a bisect's step: its kernel=git:PATH@HASH line) and that ended
 * with a point done: 1 with *id, 0 none, -1 an error. */
int db_run_find_tagged(struct db *db, const char *tag, const char *config_name, const char *needle, int64_t *id);
/* How many of the run's points are done; -1 an error. */
int db_run_points_done(struct db *db, int64_t run);
/* How many points the run recorded, done or not; -1 an error. */
int db_run_points_all(struct db *db, int64_t run);
/* Baselines of the nightly, per suite (a run's config_name) and machine
 * fingerprint. find: the pinned one (baseline set) if any, else the
 * newest nightly run of the suite on the machine that ended done and was
 * not judged a regression (db_run_set_verdict), before
 * run `before`, and of the kernel given (a vm run's kernel_label; NULL:
 * any); 1 with *id and *pinned set, 0 when there is none. */
int db_baseline_find(struct db *db, const char *suite, const char *fingerprint, const char *kernel_label, int64_t before,
		     int64_t *id, int *pinned);
int db_baseline_set(struct db *db, const char *suite, const char *fingerprint, int64_t run);
/* What the nightly said of a run: "clean" or "regressed". */
int db_run_set_verdict(struct db *db, int64_t run, const char *verdict);
/* 1 when one was cleared, 0 when there was none. */
int db_baseline_clear(struct db *db, const char *suite, const char *fingerprint);

/* The (workload, users) groups of some runs, with their point counts
 * (over all of the runs). */
struct db_group {
	const char *workload;
	long users;
	int points, done;
};
int db_groups_each(struct db *db, const int64_t *runs, int nruns, int (*fn)(void *, const struct db_group *),
		   void *arg);
/* A metric's values over the done points of one (workload, users) of a
 * run: how many (at most cap are stored), -1 on error. */
int db_point_values(struct db *db, int64_t run, const char *workload, long users, const char *metric, double *v,
		    int cap);
/* An attribute (an `info` line) of the first done point of one (workload,
 * users) of a run, cut to len - 1 bytes: 1, 0 when none has it, -1 on error. */
int db_point_attr(struct db *db, int64_t run, const char *workload, long users, const char *key, char *out,
		  size_t len);

/* Google Benchmark's JSON, read with SQLite's JSON functions. */
struct gbench_counter {
	char key[96];
	double value;
};
#define GBENCH_MAX_COUNTERS 64
struct gbench_row {
	const char *run_name, *aggregate_name, *aggregate_unit, *time_unit;
	bool aggregate;      /* else one repetition's own figures */
	int repetition;      /* repetition_index, from 0 */
	bool error;          /* the benchmark skipped with an error */
	const char *error_message;
	double real_time, cpu_time;
	int ncounters; /* the user counters: numeric fields that are not the library's own */
	struct gbench_counter counters[GBENCH_MAX_COUNTERS];
};
/* context.library_version and .library_build_type; -1 when it is not
 * Google Benchmark JSON. */
int db_gbench_context(struct db *db, const char *json, size_t len, char *version, size_t vlen, char *build,
		      size_t blen);
/* Every row, repetitions and aggregates, in file order; a row without
 * the fields Google Benchmark writes is skipped. */
int db_gbench_rows_each(struct db *db, const char *json, size_t len, int (*fn)(void *, const struct gbench_row *),
			void *arg);

#endif
