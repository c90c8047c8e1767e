/* The database: creation, migration with data kept, points written whole,
 * killed runs found, and files that are not ours refused untouched. */
#include "db.h"
#include "tap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/rmapbench-db-XXXXXX";

static long long scalar(struct db *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -2;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

int main(void)
{
	struct db db;
	char err[1200], path[512], host[256] = "";
	gethostname(host, sizeof(host) - 1);
	if (!mkdtemp(dir))
		return 1;

	/* a new database is at the latest version, in WAL mode */
	path_of(path, sizeof(path), "sub/dir/new.db");
	CHECK(db_open(path, &db, err, sizeof(err)) == 0, "creates a database and its directories (%s)", err);
	CHECK(db_version(&db) == db_latest_version() && db_latest_version() >= 2, "at the latest schema version");
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db.h, "PRAGMA journal_mode", -1, &st, NULL);
	sqlite3_step(st);
	CHECK(!strcmp((const char *)sqlite3_column_text(st, 0), "wal"), "journal mode is WAL");
	sqlite3_finalize(st);

	/* a point is written whole: results, unavailable reasons, attributes */
	struct run_meta m = { "rev", host, "6.1", NULL, "host", NULL, "t", "users = 1\n", NULL, NULL, NULL };
	int64_t run, point;
	CHECK(db_run_begin(&db, &m, &run, err, sizeof(err)) == 0, "run recorded as running");
	struct sample_set ss = { 0 };
	ss_add(&ss, "jobs_per_min", 1234.5, "jobs/min");
	ss_add(&ss, "sys_s", 0.25, "s");
	ss_unavailable(&ss, "rmap_walks", "kprobes not permitted");
	ss_attr(&ss, "stress_ng_version", "0.15.06");
	struct point_rec pr = { 1, "aim7", 8, 1, "users=8", "done", NULL, "t0", "t1" };
	CHECK(db_point_record(&db, run, &pr, &ss, &point, err, sizeof(err)) == 0, "point recorded (%s)", err);
	CHECK(scalar(&db, "SELECT count(*) FROM results") == 2, "two result rows");
	CHECK(scalar(&db, "SELECT count(*) FROM unavailable WHERE reason = 'kprobes not permitted'") == 1,
	      "the unavailable metric has its reason, and no results row");
	CHECK(scalar(&db, "SELECT count(*) FROM results WHERE metric = 'rmap_walks'") == 0,
	      "an unavailable metric is never a zero");
	CHECK(scalar(&db, "SELECT count(*) FROM point_attrs WHERE key = 'stress_ng_version'") == 1, "attribute kept");

	/* a failing point leaves nothing half-written */
	struct point_rec bad = pr;
	bad.status = "bogus"; /* violates the CHECK constraint */
	CHECK(db_point_record(&db, run, &bad, &ss, NULL, err, sizeof(err)) < 0, "bad point refused: %s", err);
	CHECK(scalar(&db, "SELECT count(*) FROM results") == 2 && scalar(&db, "SELECT count(*) FROM points") == 1,
	      "and rolled back whole");
	ss_free(&ss);

	/* a run whose process died is marked aborted by the next open */
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	char sql[512];
	snprintf(sql, sizeof(sql),
		 "INSERT INTO runs (revision, host, target, config_name, config_text, started_at, status, pid, "
		 "pid_start) VALUES ('r', '%s', 'host', 'dead', '', 't', 'running', %d, '1')",
		 host, (int)child);
	sqlite3_exec(db.h, sql, NULL, NULL, NULL);
	snprintf(sql, sizeof(sql),
		 "INSERT INTO runs (revision, host, target, config_name, config_text, started_at, status, pid, "
		 "pid_start) VALUES ('r', 'another-host', 'host', 'elsewhere', '', 't', 'running', %d, '1')",
		 (int)child);
	sqlite3_exec(db.h, sql, NULL, NULL, NULL);
	db_close(&db);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0, "reopened");
	CHECK(scalar(&db, "SELECT count(*) FROM runs WHERE config_name = 'dead' AND status = 'aborted'") == 1,
	      "the dead run is now aborted");
	CHECK(scalar(&db, "SELECT count(*) FROM runs WHERE config_name = 'elsewhere' AND status = 'running'") == 1,
	      "a run of another host is left alone");
	CHECK(scalar(&db, "SELECT count(*) FROM runs WHERE config_name = 't' AND status = 'running'") == 1,
	      "our own live run is left running");
	CHECK(scalar(&db, "SELECT count(*) FROM results") == 2, "its results survive");
	db_close(&db);

	/* migration from version 1 keeps the data */
	path_of(path, sizeof(path), "v1.db");
	CHECK(db_open_upto(path, 1, &db, err, sizeof(err)) == 0 && db_version(&db) == 1, "a version 1 database");
	CHECK(scalar(&db, "SELECT count(*) FROM sqlite_master WHERE name = 'point_attrs'") == 0, "v1 has no point_attrs");
	sqlite3_exec(db.h,
		     "INSERT INTO runs (revision, host, target, config_name, config_text, started_at, status) "
		     "VALUES ('r', 'h', 'host', 'old', 'x', 't', 'done');"
		     "INSERT INTO points (run_id, seq, workload, users, repetition, params, status, started_at, "
		     "ended_at) VALUES (1, 1, 'aim7', 4, 1, '', 'done', 't', 't');"
		     "INSERT INTO results VALUES (1, 1, 1, 'jobs_per_min', 42.0, 'jobs/min');",
		     NULL, NULL, NULL);
	db_close(&db);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0 && db_version(&db) == db_latest_version(),
	      "migrated to the latest version (%s)", err);
	CHECK(scalar(&db, "SELECT count(*) FROM results WHERE value = 42.0") == 1, "old results kept");
	CHECK(scalar(&db, "SELECT count(*) FROM sqlite_master WHERE name = 'point_attrs'") == 1, "new table added");
	CHECK(scalar(&db, "SELECT count(*) FROM runs WHERE note IS NULL") == 1, "new column added to old rows");
	sqlite3_exec(db.h, "PRAGMA user_version = 99", NULL, NULL, NULL);
	db_close(&db);

	CHECK(db_open(path, &db, err, sizeof(err)) < 0 && strstr(err, "schema version 99 is newer"),
	      "a newer database is refused: %s", err);
	/* version 5: a vm run's kernel label leaves variant for kernel_label;
	 * an engine run's design stays where it was */
	path_of(path, sizeof(path), "v4.db");
	CHECK(db_open_upto(path, 4, &db, err, sizeof(err)) == 0 && db_version(&db) == 4, "a version 4 database");
	sqlite3_exec(db.h,
		     "INSERT INTO runs (revision, host, target, variant, config_name, config_text, started_at, status) "
		     "VALUES ('r', 'h', 'vm', 'legacy-anon-vma', 'k', 'x', 't', 'done'), "
		     "('r', 'h', 'engine', 'avc', 'e', 'x', 't', 'done');",
		     NULL, NULL, NULL);
	db_close(&db);
	CHECK(db_open(path, &db, err, sizeof(err)) == 0 && db_version(&db) == db_latest_version(), "v4 migrated (%s)",
	      err);
	CHECK(scalar(&db, "SELECT count(*) FROM runs WHERE target = 'vm' AND variant IS NULL "
			  "AND kernel_label = 'legacy-anon-vma'") == 1,
	      "the vm run's label is its kernel_label, not its variant");
	CHECK(scalar(&db, "SELECT count(*) FROM runs WHERE target = 'engine' AND variant = 'avc' "
			  "AND kernel_label IS NULL") == 1,
	      "the engine run's design is still its variant");
	db_close(&db);

	/* a file that is not SQLite is refused and left as it was */
	path_of(path, sizeof(path), "notadb.db");
	const char junk[] = "this is a text file, not a database\n";
	FILE *f = fopen(path, "w");
	fputs(junk, f);
	fclose(f);
	CHECK(db_open(path, &db, err, sizeof(err)) < 0 && strstr(err, "notadb.db: not an SQLite database"),
	      "not SQLite: %s", err);
	size_t len = 0;
	char *after = rb_read_file(path, &len);
	CHECK(after && len == strlen(junk) && !memcmp(after, junk, len), "and left byte for byte as it was");
	free(after);
	char wal[600];
	snprintf(wal, sizeof(wal), "%s-wal", path);
	CHECK(access(wal, F_OK) < 0, "and nothing created beside it");

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
