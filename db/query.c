#include "query.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *db_errmsg(struct db *db)
{
	return db->h ? sqlite3_errmsg(db->h) : "no database";
}

static int prep(struct db *db, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v2(db->h, sql, -1, st, NULL) == SQLITE_OK ? 0 : -1;
}

static const char *txt(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* Steps to the end; SQLITE_DONE (or a callback's stop) is success. */
static int finish(sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* A query of one id (or a max() of ids, NULL when none), finished: 1
 * with *id, 0 none, -1 an error. */
static int step_id(sqlite3_stmt *st, int64_t *id)
{
	int rc = sqlite3_step(st), found = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	if (found)
		*id = sqlite3_column_int64(st, 0);
	return finish(st, rc) < 0 ? -1 : found;
}

#define RUN_COLUMNS                                                                                            \
	"r.id, (SELECT count(*) FROM points p WHERE p.run_id = r.id), r.revision, r.host, r.kernel_release, " \
	"r.kernel_config_hash, r.target, r.variant, r.config_name, r.config_text, r.started_at, r.ended_at, "  \
	"r.status, r.note, r.uuid, r.fingerprint, r.tag, r.kernel_label"

static void run_row(sqlite3_stmt *st, struct db_run *r)
{
	r->id = sqlite3_column_int64(st, 0);
	r->npoints = sqlite3_column_int(st, 1);
	const char **f[] = { &r->revision, &r->host, &r->kernel_release, &r->kernel_config_hash, &r->target,
			     &r->variant, &r->config_name, &r->config_text, &r->started_at, &r->ended_at,
			     &r->status, &r->note, &r->uuid, &r->fingerprint, &r->tag, &r->kernel_label };
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		*f[i] = txt(st, (int)i + 2);
}

int db_runs_each(struct db *db, db_run_fn fn, void *arg)
{
	sqlite3_stmt *st;
	if (prep(db, "SELECT " RUN_COLUMNS " FROM runs r ORDER BY r.id", &st) < 0)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_run r;
		run_row(st, &r);
		if (fn(arg, &r))
			break;
	}
	return finish(st, rc);
}

int db_run_get(struct db *db, int64_t id, db_run_fn fn, void *arg)
{
	sqlite3_stmt *st;
	if (prep(db, "SELECT " RUN_COLUMNS " FROM runs r WHERE r.id = ?", &st) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st), found = rc == SQLITE_ROW;
	if (found) {
		struct db_run r;
		run_row(st, &r);
		fn(arg, &r);
	}
	return finish(st, rc) < 0 ? -1 : found;
}

static int target_of(void *arg, const struct db_run *r)
{
	char **buf = arg;
	snprintf(buf[0], (size_t)(buf[1] - buf[0]), "%s", r->target ? r->target : "");
	return 0;
}

int db_run_target(struct db *db, int64_t id, char *buf, size_t len)
{
	char *span[2] = { buf, buf + len };
	buf[0] = 0;
	return db_run_get(db, id, target_of, span) < 0 ? -1 : 0;
}

int db_run_resolve(struct db *db, const char *spec, int64_t *id)
{
	sqlite3_stmt *st;
	bool last = !strcmp(spec, "last");
	if (!strncmp(spec, "last~", 5)) { /* the Nth before the newest */
		char *end;
		long long back = strtoll(spec + 5, &end, 10);
		if (*end || end == spec + 5 || back < 0)
			return 0;
		if (prep(db, "SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?", &st) < 0)
			return -1;
		sqlite3_bind_int64(st, 1, back);
		return step_id(st, id);
	}
	if (!last) {
		char *end;
		long long v = strtoll(spec, &end, 10);
		if (*end || end == spec || v <= 0)
			return 0;
		*id = v;
	}
	if (prep(db, last ? "SELECT max(id) FROM runs" : "SELECT id FROM runs WHERE id = ?", &st) < 0)
		return -1;
	if (!last)
		sqlite3_bind_int64(st, 1, *id);
	return step_id(st, id);
}

int db_baseline_find(struct db *db, const char *suite, const char *fingerprint, const char *kernel_label, int64_t before,
		     int64_t *id, int *pinned)
{
	sqlite3_stmt *st;
	if (prep(db,
		 "SELECT r.id FROM baselines b JOIN runs r ON r.uuid = b.run_uuid "
		 "WHERE b.suite = ?1 AND b.fingerprint = ?2",
		 &st) < 0)
		return -1;
	sqlite3_bind_text(st, 1, suite, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, fingerprint, -1, SQLITE_STATIC);
	int found = step_id(st, id);
	*pinned = found == 1;
	if (found)
		return found;
	if (prep(db,
		 "SELECT max(id) FROM runs WHERE tag = 'nightly' AND status = 'done' AND coalesce(verdict, 'clean') = 'clean' "
		 "AND id NOT IN (SELECT run_id FROM night_flags) AND config_name = ?1 "
		 "AND fingerprint = ?2 AND (?3 IS NULL OR kernel_label = ?3) AND id < ?4",
		 &st) < 0)
		return -1;
	sqlite3_bind_text(st, 1, suite, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, kernel_label, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, before);
	return step_id(st, id);
}

int db_run_find_tagged(struct db *db, const char *tag, const char *config_name, const char *needle, int64_t *id)
{
	sqlite3_stmt *st;
	if (prep(db,
		 "SELECT max(r.id) FROM runs r WHERE r.tag = ?1 AND r.config_name = ?2 AND r.status IN ('done', 'failed') "
		 "AND instr(r.config_text, ?3) > 0 "
		 "AND EXISTS (SELECT 1 FROM points p WHERE p.run_id = r.id AND p.status = 'done')",
		 &st) < 0)
		return -1;
	sqlite3_bind_text(st, 1, tag, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, config_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, needle, -1, SQLITE_STATIC);
	return step_id(st, id);
}

static int run_points(struct db *db, int64_t run, const char *sql)
{
	sqlite3_stmt *st;
	if (prep(db, sql, &st) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	int rc = sqlite3_step(st);
	int n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	return finish(st, rc) < 0 ? -1 : n;
}

int db_run_points_done(struct db *db, int64_t run)
{
	return run_points(db, run, "SELECT count(*) FROM points WHERE run_id = ?1 AND status = 'done'");
}

int db_run_points_all(struct db *db, int64_t run)
{
	return run_points(db, run, "SELECT count(*) FROM points WHERE run_id = ?1");
}

int db_baseline_set(struct db *db, const char *suite, const char *fingerprint, int64_t run)
{
	sqlite3_stmt *st;
	if (prep(db,
		 "INSERT OR REPLACE INTO baselines (suite, fingerprint, run_uuid, set_at) "
		 "SELECT ?1, ?2, uuid, strftime('%Y-%m-%dT%H:%M:%SZ', 'now') FROM runs WHERE id = ?3",
		 &st) < 0)
		return -1;
	sqlite3_bind_text(st, 1, suite, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, run);
	int rc = sqlite3_step(st);
	return finish(st, rc) < 0 || sqlite3_changes(db->h) != 1 ? -1 : 0;
}

int db_run_set_verdict(struct db *db, int64_t run, const char *verdict)
{
	sqlite3_stmt *st;
	if (prep(db, "UPDATE runs SET verdict = ?1 WHERE id = ?2", &st) < 0)
		return -1;
	sqlite3_bind_text(st, 1, verdict, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, run);
	int rc = sqlite3_step(st);
	return finish(st, rc);
}

int db_baseline_clear(struct db *db, const char *suite, const char *fingerprint)
{
	sqlite3_stmt *st;
	if (prep(db, "DELETE FROM baselines WHERE suite = ?1 AND fingerprint = ?2", &st) < 0)
		return -1;
	sqlite3_bind_text(st, 1, suite, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, fingerprint, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	return finish(st, rc) < 0 ? -1 : sqlite3_changes(db->h) > 0;
}

int db_metric_stats_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_metric_stats *), void *arg)
{
	sqlite3_stmt *st;
	/* the sample variance (n - 1) in SQL; NULL for one sample */
	if (prep(db,
		 "SELECT p.workload, p.users, r.metric, r.unit, count(*), avg(r.value), "
		 "CASE WHEN count(*) > 1 THEN (sum(r.value * r.value) - sum(r.value) * sum(r.value) / count(*)) "
		 "/ (count(*) - 1) END, min(r.value), max(r.value) "
		 "FROM results r JOIN points p ON p.id = r.point_id WHERE r.run_id = ? "
		 "GROUP BY p.workload, p.users, r.metric ORDER BY p.workload, p.users, r.metric",
		 &st) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_metric_stats m = {
			.workload = txt(st, 0),
			.users = sqlite3_column_int64(st, 1),
			.metric = txt(st, 2),
			.unit = txt(st, 3),
			.n = sqlite3_column_int(st, 4),
			.mean = sqlite3_column_double(st, 5),
			.var = sqlite3_column_type(st, 6) == SQLITE_NULL ? NAN : fmax(sqlite3_column_double(st, 6), 0),
			.min = sqlite3_column_double(st, 7),
			.max = sqlite3_column_double(st, 8),
		};
		if (fn(arg, &m))
			break;
	}
	return finish(st, rc);
}

int db_unavailable_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_unavailable *), void *arg)
{
	sqlite3_stmt *st;
	if (prep(db,
		 "SELECT metric, reason, count(*) FROM unavailable WHERE run_id = ? GROUP BY metric, reason "
		 "ORDER BY metric",
		 &st) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_unavailable u = { txt(st, 0), txt(st, 1), sqlite3_column_int(st, 2) };
		if (fn(arg, &u))
			break;
	}
	return finish(st, rc);
}

int db_unavailable_reason(struct db *db, int64_t run, const char *metric, char *buf, size_t len)
{
	sqlite3_stmt *st;
	buf[0] = 0;
	if (prep(db, "SELECT reason FROM unavailable WHERE run_id = ? AND metric = ? LIMIT 1", &st) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && txt(st, 0))
		snprintf(buf, len, "%s", txt(st, 0));
	return finish(st, rc);
}

int db_points_not_done_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_point *), void *arg)
{
	sqlite3_stmt *st;
	if (prep(db,
		 "SELECT seq, workload, users, repetition, status, error FROM points "
		 "WHERE run_id = ? AND status != 'done' ORDER BY seq",
		 &st) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_point p = { .seq = sqlite3_column_int(st, 0),
				      .workload = txt(st, 1),
				      .users = sqlite3_column_int64(st, 2),
				      .repetition = sqlite3_column_int(st, 3),
				      .status = txt(st, 4),
				      .error = txt(st, 5) };
		if (fn(arg, &p))
			break;
	}
	return finish(st, rc);
}

int db_tidy_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_tidy_row *), void *arg)
{
	sqlite3_stmt *st;
	/* results and unavailable rows in one stream: value or reason */
	if (prep(db,
		 "SELECT p.id, p.workload, p.users, p.repetition, p.status, r.metric, r.value, r.unit, NULL "
		 "FROM results r JOIN points p ON p.id = r.point_id WHERE r.run_id = ?1 "
		 "UNION ALL SELECT p.id, p.workload, p.users, p.repetition, p.status, u.metric, NULL, NULL, "
		 "u.reason FROM unavailable u JOIN points p ON p.id = u.point_id WHERE u.run_id = ?1 "
		 "ORDER BY 1, 6",
		 &st) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_tidy_row t = {
			.point_id = sqlite3_column_int64(st, 0),
			.workload = txt(st, 1),
			.users = sqlite3_column_int64(st, 2),
			.repetition = sqlite3_column_int(st, 3),
			.point_status = txt(st, 4),
			.metric = txt(st, 5),
			.unavailable = sqlite3_column_type(st, 6) == SQLITE_NULL,
			.value = sqlite3_column_double(st, 6),
			.unit = txt(st, 7),
			.reason = txt(st, 8),
		};
		if (fn(arg, &t))
			break;
	}
	return finish(st, rc);
}

static int users_stats(struct db *db, int64_t run, const char *metric, bool per_workload, db_users_fn fn, void *arg)
{
	sqlite3_stmt *st;
	const char *sql = per_workload
				  ? "SELECT p.workload, p.users, avg(r.value), min(r.value), max(r.value), count(*) "
				    "FROM results r JOIN points p ON p.id = r.point_id "
				    "WHERE r.run_id = ? AND r.metric = ? AND p.status = 'done' "
				    "GROUP BY p.workload, p.users ORDER BY p.workload, p.users"
				  : "SELECT NULL, p.users, avg(r.value), min(r.value), max(r.value), count(*) "
				    "FROM results r JOIN points p ON p.id = r.point_id "
				    "WHERE r.run_id = ? AND r.metric = ? AND p.status = 'done' "
				    "GROUP BY p.users ORDER BY p.users";
	if (prep(db, sql, &st) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_users_stat s = { txt(st, 0),
					   sqlite3_column_int64(st, 1),
					   sqlite3_column_double(st, 2),
					   sqlite3_column_double(st, 3),
					   sqlite3_column_double(st, 4),
					   sqlite3_column_int(st, 5) };
		if (fn(arg, &s))
			break;
	}
	return finish(st, rc);
}

int db_metric_by_users(struct db *db, int64_t run, const char *metric, db_users_fn fn, void *arg)
{
	return users_stats(db, run, metric, true, fn, arg);
}

int db_metric_by_users_all(struct db *db, int64_t run, const char *metric, db_users_fn fn, void *arg)
{
	return users_stats(db, run, metric, false, fn, arg);
}

int db_groups_each(struct db *db, const int64_t *runs, int nruns, int (*fn)(void *, const struct db_group *),
		   void *arg)
{
	sqlite3_stmt *st;
	/* the runs as a JSON array: one statement whatever their number */
	char ids[1024] = "[";
	for (int i = 0; i < nruns; i++) {
		size_t used = strlen(ids);
		snprintf(ids + used, sizeof(ids) - used, "%s%lld", i ? "," : "", (long long)runs[i]);
	}
	strncat(ids, "]", sizeof(ids) - strlen(ids) - 1);
	if (prep(db,
		 "SELECT workload, users, count(*), sum(status = 'done') FROM points "
		 "WHERE run_id IN (SELECT value FROM json_each(?)) GROUP BY workload, users ORDER BY workload, users",
		 &st) < 0)
		return -1;
	sqlite3_bind_text(st, 1, ids, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_group g = { txt(st, 0), sqlite3_column_int64(st, 1), sqlite3_column_int(st, 2),
				      sqlite3_column_int(st, 3) };
		if (fn(arg, &g))
			break;
	}
	return finish(st, rc);
}

/* A query over the done points of one (workload, users) of a run, its
 * parameters in that order and then a name (a metric's, an attribute's). */
static int prep_points(struct db *db, const char *sql, int64_t run, const char *workload, long users, const char *name,
		       sqlite3_stmt **st)
{
	if (prep(db, sql, st) < 0)
		return -1;
	sqlite3_bind_int64(*st, 1, run);
	sqlite3_bind_text(*st, 2, workload, -1, SQLITE_STATIC);
	sqlite3_bind_int64(*st, 3, users);
	sqlite3_bind_text(*st, 4, name, -1, SQLITE_STATIC);
	return 0;
}

int db_point_values(struct db *db, int64_t run, const char *workload, long users, const char *metric, double *v,
		    int cap)
{
	sqlite3_stmt *st;
	if (prep_points(db,
			"SELECT r.value FROM results r JOIN points p ON p.id = r.point_id WHERE r.run_id = ? "
			"AND p.workload = ? AND p.users = ? AND r.metric = ? AND p.status = 'done' ORDER BY p.seq",
			run, workload, users, metric, &st) < 0)
		return -1;
	int n = 0, rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n < cap)
			v[n] = sqlite3_column_double(st, 0);
		n++;
	}
	return finish(st, rc) < 0 ? -1 : n < cap ? n : cap;
}

int db_point_attr(struct db *db, int64_t run, const char *workload, long users, const char *key, char *out,
		  size_t len)
{
	sqlite3_stmt *st;
	if (prep_points(db,
			"SELECT a.value FROM point_attrs a JOIN points p ON p.id = a.point_id WHERE p.run_id = ? "
			"AND p.workload = ? AND p.users = ? AND a.key = ? AND p.status = 'done' ORDER BY p.seq LIMIT 1",
			run, workload, users, key, &st) < 0)
		return -1;
	int found = 0, rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);
		snprintf(out, len, "%s", v ? (const char *)v : "");
		found = 1;
		rc = SQLITE_DONE;
	}
	return finish(st, rc) < 0 ? -1 : found;
}

int db_gbench_context(struct db *db, const char *json, size_t len, char *version, size_t vlen, char *build,
		      size_t blen)
{
	sqlite3_stmt *st;
	if (prep(db,
		 "SELECT json_extract(?1, '$.context.library_version'), "
		 "json_extract(?1, '$.context.library_build_type')",
		 &st) < 0)
		return -1;
	sqlite3_bind_text(st, 1, json, (int)len, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(version, vlen, "%s", txt(st, 0) ? txt(st, 0) : "unknown");
		snprintf(build, blen, "%s", txt(st, 1) ? txt(st, 1) : "unknown");
	}
	return finish(st, rc);
}

/* The fields Google Benchmark writes of its own; the rest are counters. */
static const char *const gbench_standard_keys[] = {
	"name",		  "family_index", "per_family_instance_index", "run_name",	 "run_type",
	"repetitions",	  "repetition_index", "threads",			"aggregate_name", "aggregate_unit",
	"iterations",	  "real_time",	      "cpu_time",			"time_unit",	  "label",
	"error_occurred", "error_message",    NULL
};

static bool gbench_standard(const char *k)
{
	for (int i = 0; gbench_standard_keys[i]; i++)
		if (!strcmp(gbench_standard_keys[i], k))
			return true;
	return false;
}

int db_gbench_rows_each(struct db *db, const char *json, size_t len, int (*fn)(void *, const struct gbench_row *),
			void *arg)
{
	sqlite3_stmt *rows, *keys;
	if (prep(db,
		 "SELECT value, json_extract(value, '$.run_name'), json_extract(value, '$.aggregate_name'), "
		 "json_extract(value, '$.aggregate_unit'), json_extract(value, '$.real_time'), "
		 "json_extract(value, '$.cpu_time'), json_extract(value, '$.time_unit'), "
		 "json_extract(value, '$.run_type') = 'aggregate', json_extract(value, '$.repetition_index'), "
		 "json_extract(value, '$.error_occurred'), json_extract(value, '$.error_message') "
		 "FROM json_each(?1, '$.benchmarks') WHERE json_extract(value, '$.run_type') IN ('aggregate', 'iteration')",
		 &rows) < 0)
		return -1;
	if (prep(db, "SELECT key, value FROM json_each(?1) WHERE type IN ('integer', 'real')", &keys) < 0) {
		sqlite3_finalize(rows);
		return -1;
	}
	sqlite3_bind_text(rows, 1, json, (int)len, SQLITE_STATIC);
	int rc, krc = SQLITE_DONE;
	while ((rc = sqlite3_step(rows)) == SQLITE_ROW) {
		struct gbench_row r = {
			.run_name = txt(rows, 1),
			.aggregate_name = txt(rows, 2),
			.aggregate_unit = txt(rows, 3),
			.real_time = sqlite3_column_double(rows, 4),
			.cpu_time = sqlite3_column_double(rows, 5),
			.time_unit = txt(rows, 6),
			.aggregate = sqlite3_column_int(rows, 7) != 0,
			.repetition = sqlite3_column_int(rows, 8),
			.error = sqlite3_column_int(rows, 9) != 0,
			.error_message = txt(rows, 10),
		};
		if (r.aggregate && !r.aggregate_name)
			continue; /* not what Google Benchmark writes */
		if (!r.run_name || (!r.time_unit && !r.error) || r.repetition < 0 || r.repetition > 100000)
			continue;
		sqlite3_bind_text(keys, 1, txt(rows, 0), -1, SQLITE_TRANSIENT);
		while ((krc = sqlite3_step(keys)) == SQLITE_ROW && r.ncounters < GBENCH_MAX_COUNTERS) {
			const char *k = txt(keys, 0);
			if (k && !gbench_standard(k)) {
				struct gbench_counter *c = &r.counters[r.ncounters++];
				snprintf(c->key, sizeof(c->key), "%s", k);
				c->value = sqlite3_column_double(keys, 1);
			}
		}
		int stop = fn(arg, &r);
		sqlite3_reset(keys);
		if (krc != SQLITE_ROW && krc != SQLITE_DONE)
			break;
		if (stop)
			break;
	}
	sqlite3_finalize(keys);
	return finish(rows, krc != SQLITE_ROW && krc != SQLITE_DONE ? krc : rc);
}
