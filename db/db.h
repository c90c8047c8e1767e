/* The results database: open (creating and migrating), record runs and
 * points. A point is written in one transaction, so a run killed at any
 * instant leaves whole points; its run row stays 'running' until the next
 * open finds its process gone and marks it 'aborted'. */
#ifndef RMAPBENCH_DB_H
#define RMAPBENCH_DB_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct run_meta {
	const char *revision, *host, *kernel_release, *kernel_config_hash;
	const char *target, *variant, *config_name, *config_text; /* variant: the engine's rmap design */
	const char *fingerprint; /* the machine (harness/run/run_here.c), NULL if unknown */
	const char *tag;         /* "nightly", or NULL */
	const char *kernel_label; /* vm: the guest's kernel, as its config names it */
};

struct point_rec {
	int seq;
	const char *workload;
	long users;
	int repetition;
	const char *params;
	const char *status; /* done | failed | aborted */
	const char *error;
	const char *started_at, *ended_at;
};

struct db {
	sqlite3 *h;
	char path[1024];
};

/* PRAGMA application_id of our databases: "RMB1". */
#define DB_APPLICATION_ID 0x524d4231

int db_latest_version(void);
/* Opens or creates PATH, migrating it to the latest version (or only up to
 * `upto` when > 0, for tests). Errors name the file. */
int db_open(const char *path, struct db *db, char *err, size_t errlen);
int db_open_upto(const char *path, int upto, struct db *db, char *err, size_t errlen);
/* For commands that only read: no migration, no WAL switch, nothing
 * written; works on a read-only filesystem. */
int db_open_readonly(const char *path, struct db *db, char *err, size_t errlen);
void db_close(struct db *db);
int db_version(struct db *db);

int db_run_begin(struct db *db, const struct run_meta *m, int64_t *run_id, char *err, size_t errlen);
int db_run_end(struct db *db, int64_t run_id, const char *status, const char *note);
int db_point_record(struct db *db, int64_t run_id, const struct point_rec *p, const struct sample_set *s,
		    int64_t *point_id, char *err, size_t errlen);
/* Copies the runs of OTHER (an rmapbench database at the same schema
 * version) that this one lacks, by their uuid, with their points, results,
 * unavailable metrics, attributes and baselines, in one transaction: a
 * run is never duplicated, and a failed merge changes nothing. How many
 * runs were added into *added, how many baseline pins it brought into
 * *pins. OTHER is outside bytes: read with SQLITE_DBCONFIG_DEFENSIVE and
 * trusted_schema off, and each table it reads must be a table. */
int db_merge(struct db *db, const char *other, int *added, int *pins, char *err, size_t errlen);
/* Deletes the runs that started more than keep_days ago, except the
 * keep_last newest, a pinned baseline, and the baseline any kept nightly
 * run is judged against (the last nightly of its suite and machine that
 * ended done before it); running runs are never touched. How many into
 * *deleted. */
int db_prune(struct db *db, double keep_days, long keep_last, int *deleted, char *err, size_t errlen);
/* Marks runs whose process is gone as aborted; returns how many. */
int db_reap_stale_runs(struct db *db);

#endif
