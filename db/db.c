#include "db.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrations.h"

int db_latest_version(void)
{
	return (int)ARRAY_SIZE(migrations);
}

static int fail(struct db *db, char *err, size_t errlen, const char *what)
{
	int code = db->h ? sqlite3_extended_errcode(db->h) & 0xff : SQLITE_CANTOPEN;
	const char *msg = db->h ? sqlite3_errmsg(db->h) : "out of memory";
	if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_IOERR ||
	    code == SQLITE_PERM)
		snprintf(err, errlen, "%s: %s: %s (is its directory read-only or full?)", db->path, what, msg);
	else if (code == SQLITE_NOTADB)
		snprintf(err, errlen, "%s: not an SQLite database", db->path);
	else
		snprintf(err, errlen, "%s: %s: %s", db->path, what, msg);
	return -1;
}

/* Refuses a file that is not SQLite before SQLite touches it: opening such
 * a file in WAL mode must not be allowed to write anything beside it. */
static int looks_like_sqlite(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : (snprintf(err, errlen, "%s: %s", path, strerror(errno)), -1);
	char head[16];
	ssize_t n = read(fd, head, sizeof(head));
	close(fd);
	if (n == 0)
		return 0;
	if (n != 16 || memcmp(head, "SQLite format 3", 16)) {
		snprintf(err, errlen, "%s: not an SQLite database", path);
		return -1;
	}
	return 0;
}

int db_version(struct db *db)
{
	sqlite3_stmt *st;
	int v = -1;
	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Each step reads the version inside its own write transaction: two
 * processes opening a new database at once must not both create it. */
static int migrate(struct db *db, int upto, char *err, size_t errlen)
{
	for (;;) {
		if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
			return fail(db, err, errlen, "migrating");
		int v = db_version(db);
		if (v < 0) {
			sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
			return fail(db, err, errlen, "reading schema version");
		}
		if (v > db_latest_version()) {
			sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
			snprintf(err, errlen, "%s: schema version %d is newer than this rmapbench knows (%d)", db->path, v,
				 db_latest_version());
			return -1;
		}
		if (v == db_latest_version() || (upto > 0 && v >= upto)) {
			sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
			return 0;
		}
		const struct migration *m = &migrations[v];
		char pragma[96], what[128];
		snprintf(what, sizeof(what), "migrating to version %d (%s)", m->version, m->name);
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d; PRAGMA application_id = %d", m->version,
			 DB_APPLICATION_ID);
		if (sqlite3_exec(db->h, m->sql, NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(db->h, pragma, NULL, NULL, NULL) != SQLITE_OK) {
			fail(db, err, errlen, what);
			sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		if (sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			return fail(db, err, errlen, what);
	}
}

/* Ours, new, or someone else's: a database of another program (its own
 * application_id, or tables but no schema version of ours) is refused
 * before anything is written to it, WAL included. */
static int check_ours(struct db *db, char *err, size_t errlen)
{
	/* one statement, one snapshot: read apart, a creator committing in
	 * between makes a half-made database of ours look like another's */
	sqlite3_stmt *st;
	int app = -1, version = -1, tables = -1;
	if (sqlite3_prepare_v2(db->h,
			       "SELECT (SELECT application_id FROM pragma_application_id), "
			       "(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)",
			       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		app = sqlite3_column_int(st, 0);
		version = sqlite3_column_int(st, 1);
		tables = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	if (app < 0 || version < 0 || tables < 0)
		return fail(db, err, errlen, "reading its header");
	/* a file of before application_id, or another program's that sets a
	 * user_version too: ours only if it has our tables */
	int ours_tables = 0;
	if (!app && version > 0 &&
	    sqlite3_prepare_v2(db->h,
			       "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('runs', 'points', "
			       "'results')",
			       -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			ours_tables = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	if ((app && app != DB_APPLICATION_ID) || (!app && !version && tables) || (!app && version > 0 && ours_tables < 3)) {
		snprintf(err, errlen, "%s: an SQLite database of another program (application_id %d, %d tables): "
			 "refused, untouched", db->path, app, tables);
		return -1;
	}
	/* before anything is written to it (its journal mode included) */
	if (version > db_latest_version()) {
		snprintf(err, errlen, "%s: schema version %d is newer than this rmapbench knows (%d): refused, untouched",
			 db->path, version, db_latest_version());
		return -1;
	}
	return 0;
}

/* Two openers switching a new file to WAL at once each hold a shared lock
 * and want the exclusive one: SQLite answers one of them SQLITE_BUSY at
 * once, without the busy handler, since waiting could never succeed. That
 * one lets go and tries again (CI saw it in db_hostile's six creators). */
static int switch_to_wal(struct db *db)
{
	for (int attempt = 0; attempt < 200; attempt++) {
		sqlite3_stmt *st;
		int rc = sqlite3_prepare_v2(db->h, "PRAGMA journal_mode = WAL", -1, &st, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		int wal = rc == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(st, 0), "wal");
		sqlite3_finalize(st);
		if (wal)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			return -1;
		usleep(5000 + 1000 * (useconds_t)(attempt % 20));
	}
	return -1;
}

int db_open_upto(const char *path, int upto, struct db *db, char *err, size_t errlen)
{
	memset(db, 0, sizeof(*db));
	snprintf(db->path, sizeof(db->path), "%s", path);
	if (!*path) {
		snprintf(err, errlen, "the database path is empty");
		return -1;
	}
	if (looks_like_sqlite(path, err, errlen) < 0)
		return -1;
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s", path);
	if (rb_mkdir_p(dirname(dir)) < 0) {
		snprintf(err, errlen, "%s: cannot create its directory: %s", path, strerror(errno));
		return -1;
	}
	if (sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		fail(db, err, errlen, "cannot open");
		db_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db->h, 5000);
	if (check_ours(db, err, errlen) < 0) {
		db_close(db);
		return -1;
	}
	if (switch_to_wal(db) < 0) {
		fail(db, err, errlen, "cannot switch to WAL");
		db_close(db);
		return -1;
	}
	sqlite3_exec(db->h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	if (migrate(db, upto, err, errlen) < 0) {
		db_close(db);
		return -1;
	}
	if (upto <= 0)
		db_reap_stale_runs(db);
	return 0;
}

/* file:PATH for SQLite's URI form, every byte outside a safe set escaped. */
static void uri_of(const char *path, const char *query, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p && used + 4 < len; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/._-", *p))
			buf[used++] = (char)*p;
		else
			used += (size_t)snprintf(buf + used, len - used, "%%%02X", *p);
	}
	snprintf(buf + used, len - used, "%s", query);
}

int db_open_readonly(const char *path, struct db *db, char *err, size_t errlen)
{
	memset(db, 0, sizeof(*db));
	snprintf(db->path, sizeof(db->path), "%s", path);
	if (!*path) {
		snprintf(err, errlen, "the database path is empty");
		return -1;
	}
	if (access(path, F_OK) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (looks_like_sqlite(path, err, errlen) < 0)
		return -1;
	/* A WAL database on a read-only filesystem has no -shm to share: then
	 * it is read as immutable, which it is while nothing can write it. */
	char uri[4200];
	static const char *const modes[] = { "?mode=ro", "?mode=ro&immutable=1" };
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		uri_of(path, modes[i], uri, sizeof(uri));
		if (sqlite3_open_v2(uri, &db->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
		    db_version(db) >= 0)
			break;
		db_close(db);
	}
	if (!db->h) {
		snprintf(err, errlen, "%s: cannot open it read-only", path);
		return -1;
	}
	sqlite3_busy_timeout(db->h, 5000);
	int v = db_version(db);
	if (check_ours(db, err, errlen) < 0) {
		db_close(db);
		return -1;
	}
	if (v != db_latest_version()) {
		snprintf(err, errlen, "%s: schema version %d, this rmapbench reads %d: %s", path, v, db_latest_version(),
			 v < db_latest_version() ? "open it once with a command that writes (run) to migrate it"
						 : "it is newer than this rmapbench");
		db_close(db);
		return -1;
	}
	return 0;
}

int db_open(const char *path, struct db *db, char *err, size_t errlen)
{
	return db_open_upto(path, 0, db, err, errlen);
}

void db_close(struct db *db)
{
	if (db->h)
		sqlite3_close(db->h);
	db->h = NULL;
}

int db_reap_stale_runs(struct db *db)
{
	sqlite3_stmt *st;
	int n = 0;
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	if (sqlite3_prepare_v2(db->h, "SELECT id, pid, pid_start, host FROM runs WHERE status = 'running'", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	int64_t ids[256];
	int nids = 0;
	while (sqlite3_step(st) == SQLITE_ROW && nids < 256) {
		const char *start = (const char *)sqlite3_column_text(st, 2);
		const char *rhost = (const char *)sqlite3_column_text(st, 3);
		int pid = sqlite3_column_int(st, 1);
		/* a run of another host is left alone: we cannot see its process */
		if (rhost && strcmp(rhost, host))
			continue;
		if (!rb_process_alive(pid, start))
			ids[nids++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	for (int i = 0; i < nids; i++) {
		char sql[512];
		snprintf(sql, sizeof(sql),
			 "UPDATE runs SET status = 'aborted', note = 'its process died while running; found by a "
			 "later open', ended_at = COALESCE((SELECT max(ended_at) FROM points WHERE run_id = %lld), "
			 "started_at) WHERE id = %lld AND status = 'running'",
			 (long long)ids[i], (long long)ids[i]);
		if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) == SQLITE_OK)
			n++;
	}
	return n;
}

int db_run_begin(struct db *db, const struct run_meta *m, int64_t *run_id, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	char now[32], start[32] = "";
	rb_utc_now(now, sizeof(now));
	rb_process_starttime(getpid(), start, sizeof(start));
	const char *sql = "INSERT INTO runs (revision, host, kernel_release, kernel_config_hash, target, variant, "
			  "config_name, config_text, started_at, status, pid, pid_start, fingerprint, tag, kernel_label, uuid) "
			  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, lower(hex(randomblob(16))))";
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, errlen, "recording the run");
	const char *vals[] = { m->revision, m->host, m->kernel_release, m->kernel_config_hash, m->target,
			       m->variant, m->config_name, m->config_text, now };
	for (int i = 0; i < (int)ARRAY_SIZE(vals); i++)
		sqlite3_bind_text(st, i + 1, vals[i], -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 10, getpid());
	sqlite3_bind_text(st, 11, start, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 12, m->fingerprint, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 13, m->tag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 14, m->kernel_label, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(db, err, errlen, "recording the run");
	*run_id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

int db_run_end(struct db *db, int64_t run_id, const char *status, const char *note)
{
	sqlite3_stmt *st;
	char now[32];
	rb_utc_now(now, sizeof(now));
	if (sqlite3_prepare_v2(db->h, "UPDATE runs SET status = ?, ended_at = ?, note = ? WHERE id = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, status, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, note, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, run_id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int exec_bound(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int db_point_record(struct db *db, int64_t run_id, const struct point_rec *p, const struct sample_set *s,
		    int64_t *point_id, char *err, size_t errlen)
{
	sqlite3_stmt *pt = NULL, *res = NULL, *un = NULL, *at = NULL;
	int rc = -1;
	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return fail(db, err, errlen, "recording a point");
	if (sqlite3_prepare_v2(db->h,
			       "INSERT INTO points (run_id, seq, workload, users, repetition, params, status, error, "
			       "started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &pt, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->h,
			       "INSERT INTO results (run_id, point_id, repetition, metric, value, unit) "
			       "VALUES (?, ?, ?, ?, ?, ?)",
			       -1, &res, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->h, "INSERT INTO unavailable (run_id, point_id, metric, reason) VALUES (?, ?, ?, ?)",
			       -1, &un, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->h, "INSERT OR REPLACE INTO point_attrs (point_id, key, value) VALUES (?, ?, ?)", -1,
			       &at, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(pt, 1, run_id);
	sqlite3_bind_int(pt, 2, p->seq);
	sqlite3_bind_text(pt, 3, p->workload, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(pt, 4, p->users);
	sqlite3_bind_int(pt, 5, p->repetition);
	sqlite3_bind_text(pt, 6, p->params, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(pt, 7, p->status, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(pt, 8, p->error, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(pt, 9, p->started_at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(pt, 10, p->ended_at, -1, SQLITE_TRANSIENT);
	if (exec_bound(pt) < 0)
		goto out;
	int64_t pid = sqlite3_last_insert_rowid(db->h);
	for (size_t i = 0; i < s->n; i++) {
		const struct sample *x = &s->v[i];
		sqlite3_stmt *q = x->unavailable ? un : res;
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_int64(q, 2, pid);
		if (x->unavailable) {
			sqlite3_bind_text(q, 3, x->metric, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(q, 4, x->reason, -1, SQLITE_TRANSIENT);
		} else {
			sqlite3_bind_int(q, 3, p->repetition);
			sqlite3_bind_text(q, 4, x->metric, -1, SQLITE_TRANSIENT);
			sqlite3_bind_double(q, 5, x->value);
			sqlite3_bind_text(q, 6, x->unit, -1, SQLITE_TRANSIENT);
		}
		if (exec_bound(q) < 0)
			goto out;
	}
	for (size_t i = 0; i < s->nattrs; i++) {
		sqlite3_bind_int64(at, 1, pid);
		sqlite3_bind_text(at, 2, s->attrs[i].key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(at, 3, s->attrs[i].value, -1, SQLITE_TRANSIENT);
		if (exec_bound(at) < 0)
			goto out;
	}
	if (sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	if (point_id)
		*point_id = pid;
	rc = 0;
out:
	if (rc < 0) {
		fail(db, err, errlen, "recording a point");
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_finalize(pt);
	sqlite3_finalize(res);
	sqlite3_finalize(un);
	sqlite3_finalize(at);
	return rc;
}

/* What a merge reads of the other database: each must be a table, not a
 * view (a recursive one spins) of the same name. */
static const char *const merged_tables[] = { "runs", "points", "results", "unavailable", "point_attrs", "baselines",
						     "night_flags" };

static int other_tables_are_tables(struct db *db, const char *other, char *err, size_t errlen)
{
	for (size_t i = 0; i < ARRAY_SIZE(merged_tables); i++) {
		sqlite3_stmt *st;
		const char *type = NULL;
		if (sqlite3_prepare_v2(db->h, "SELECT type FROM other.sqlite_master WHERE name = ?", -1, &st, NULL) !=
		    SQLITE_OK)
			return fail(db, err, errlen, "reading the other database's schema");
		sqlite3_bind_text(st, 1, merged_tables[i], -1, SQLITE_STATIC);
		int rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			type = (const char *)sqlite3_column_text(st, 0);
		bool table = type && !strcmp(type, "table");
		sqlite3_finalize(st);
		if (!table) {
			snprintf(err, errlen, "%s: its '%s' is not a table: refused, nothing merged", other,
				 merged_tables[i]);
			return -1;
		}
	}
	return 0;
}

int db_merge(struct db *db, const char *other, int *added, int *pins, char *err, size_t errlen)
{
	struct db o;
	*added = *pins = 0;
	if (db_open_readonly(other, &o, err, errlen) < 0) /* ours, and at our version */
		return -1;
	db_close(&o);
	/* the other file's schema is outside bytes: nothing in it (a view, a
	 * trigger, a default) may call a function with side effects, and
	 * SQLite refuses what could corrupt a file on purpose */
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h, "ATTACH DATABASE ? AS other", -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, errlen, "attaching the other database");
	sqlite3_bind_text(st, 1, other, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(db, err, errlen, "attaching the other database");
	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		fail(db, err, errlen, "merging");
		sqlite3_exec(db->h, "DETACH DATABASE other", NULL, NULL, NULL);
		return -1;
	}
	/* checked inside the transaction: the schema read is the one merged */
	if (other_tables_are_tables(db, other, err, errlen) < 0) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_exec(db->h, "DETACH DATABASE other", NULL, NULL, NULL);
		return -1;
	}
	static const char *const steps[] = {
		"CREATE TEMP TABLE run_map (old_id INTEGER PRIMARY KEY, uuid TEXT NOT NULL, new_id INTEGER)",
		"INSERT INTO run_map (old_id, uuid) SELECT id, uuid FROM other.runs "
		"WHERE uuid IS NOT NULL AND uuid NOT IN (SELECT uuid FROM main.runs WHERE uuid IS NOT NULL)",
		"INSERT INTO main.runs (revision, host, kernel_release, kernel_config_hash, target, variant, config_name, "
		"config_text, started_at, ended_at, status, pid, pid_start, note, uuid, fingerprint, tag, verdict, "
		"kernel_label) "
		"SELECT revision, host, kernel_release, kernel_config_hash, target, variant, config_name, config_text, "
		"started_at, ended_at, CASE status WHEN 'running' THEN 'aborted' ELSE status END, NULL, NULL, note, uuid, "
		"fingerprint, tag, verdict, kernel_label FROM other.runs WHERE id IN (SELECT old_id FROM run_map) ORDER BY id",
		"UPDATE run_map SET new_id = (SELECT id FROM main.runs WHERE uuid = run_map.uuid)",
		"INSERT INTO main.points (run_id, seq, workload, users, repetition, params, status, error, started_at, "
		"ended_at) SELECT m.new_id, p.seq, p.workload, p.users, p.repetition, p.params, p.status, p.error, "
		"p.started_at, p.ended_at FROM other.points p JOIN run_map m ON m.old_id = p.run_id ORDER BY p.id",
		"CREATE TEMP TABLE point_map AS SELECT p.id AS old_id, np.id AS new_id FROM other.points p "
		"JOIN run_map m ON m.old_id = p.run_id JOIN main.points np ON np.run_id = m.new_id AND np.seq = p.seq "
		"AND np.repetition = p.repetition AND np.workload = p.workload AND np.users = p.users",
		"INSERT INTO main.results (run_id, point_id, repetition, metric, value, unit) SELECT m.new_id, pm.new_id, "
		"r.repetition, r.metric, r.value, r.unit FROM other.results r JOIN run_map m ON m.old_id = r.run_id "
		"JOIN point_map pm ON pm.old_id = r.point_id",
		"INSERT INTO main.unavailable (run_id, point_id, metric, reason) SELECT m.new_id, pm.new_id, u.metric, "
		"u.reason FROM other.unavailable u JOIN run_map m ON m.old_id = u.run_id JOIN point_map pm ON "
		"pm.old_id = u.point_id",
		"INSERT OR IGNORE INTO main.point_attrs (point_id, key, value) SELECT pm.new_id, a.key, a.value "
		"FROM other.point_attrs a JOIN point_map pm ON pm.old_id = a.point_id",
		/* a confirmation's link, to the night's id in this database */
		"UPDATE main.runs SET confirms = (SELECT n.id FROM other.runs o JOIN other.runs c ON c.id = o.confirms "
		"JOIN main.runs n ON n.uuid = c.uuid WHERE o.uuid = main.runs.uuid) "
		"WHERE id IN (SELECT new_id FROM run_map)",
		"INSERT INTO main.night_flags (run_id, workload, users, metric, verdict, change) SELECT m.new_id, "
		"f.workload, f.users, f.metric, f.verdict, f.change FROM other.night_flags f JOIN run_map m ON "
		"m.old_id = f.run_id",
		"INSERT OR IGNORE INTO main.baselines SELECT * FROM other.baselines",
	};
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		if (sqlite3_exec(db->h, steps[i], NULL, NULL, NULL) != SQLITE_OK) {
			fail(db, err, errlen, "merging");
			sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
			goto out;
		}
		if (i == 2)
			*added = sqlite3_changes(db->h);
		if (i == ARRAY_SIZE(steps) - 1) /* a baseline pin: it decides what nights are judged against */
			*pins = sqlite3_changes(db->h);
	}
	if (sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		fail(db, err, errlen, "merging");
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	rc = 0;
out:
	sqlite3_exec(db->h, "DROP TABLE IF EXISTS temp.run_map; DROP TABLE IF EXISTS temp.point_map", NULL, NULL, NULL);
	sqlite3_exec(db->h, "DETACH DATABASE other", NULL, NULL, NULL);
	return rc == 0 ? 0 : -1;
}

int db_prune(struct db *db, double keep_days, long keep_last, int *deleted, char *err, size_t errlen)
{
	*deleted = 0;
	char cutoff[64];
	snprintf(cutoff, sizeof(cutoff), "-%.0f seconds", keep_days * 86400);
	sqlite3_stmt *st;
	const char *sql =
		"CREATE TEMP TABLE doomed AS SELECT id FROM runs r WHERE status != 'running' "
		"AND started_at < strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?1) "
		"AND id NOT IN (SELECT id FROM runs ORDER BY id DESC LIMIT ?2) "
		"AND uuid NOT IN (SELECT run_uuid FROM baselines) "
		"AND id NOT IN (SELECT (SELECT max(b.id) FROM runs b WHERE b.tag = 'nightly' AND b.status = 'done' "
		"  AND coalesce(b.verdict, 'clean') = 'clean' AND b.id NOT IN (SELECT run_id FROM night_flags) "
		"  AND b.config_name = k.config_name AND b.fingerprint IS k.fingerprint AND b.id < k.id) "
		"  FROM runs k WHERE k.tag = 'nightly' AND k.id NOT IN (SELECT id FROM runs WHERE status != 'running' "
		"  AND started_at < strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?1) "
		"  AND id NOT IN (SELECT id FROM runs ORDER BY id DESC LIMIT ?2)))";
	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return fail(db, err, errlen, "pruning");
	int rc = -1;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, cutoff, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, keep_last);
	int step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		goto out;
	static const char *const drops[] = {
		"DELETE FROM point_attrs WHERE point_id IN (SELECT id FROM points WHERE run_id IN (SELECT id FROM doomed))",
		"DELETE FROM results WHERE run_id IN (SELECT id FROM doomed)",
		"DELETE FROM night_flags WHERE run_id IN (SELECT id FROM doomed)",
		"DELETE FROM unavailable WHERE run_id IN (SELECT id FROM doomed)",
		"DELETE FROM points WHERE run_id IN (SELECT id FROM doomed)",
		"DELETE FROM runs WHERE id IN (SELECT id FROM doomed)",
	};
	for (size_t i = 0; i < ARRAY_SIZE(drops); i++)
		if (sqlite3_exec(db->h, drops[i], NULL, NULL, NULL) != SQLITE_OK)
			goto out;
	*deleted = sqlite3_changes(db->h);
	rc = sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
out:
	if (rc < 0) {
		fail(db, err, errlen, "pruning");
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_exec(db->h, "DROP TABLE IF EXISTS temp.doomed", NULL, NULL, NULL);
	return rc;
}
