/* db/query.c: the reads the harness makes, on a database written here:
 * run lookups, per-point values, groups over runs, and Google Benchmark
 * JSON read with SQLite's JSON functions, hostile JSON included. */
#include "db.h"
#include "query.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/rmapbench-query-XXXXXX";

static void point(struct db *db, int64_t run, int seq, const char *w, long users, const char *status, double v)
{
	char err[1200];
	struct sample_set ss = { 0 };
	ss_add(&ss, "jobs_per_min", v, "jobs/min");
	ss_unavailable(&ss, "rmap_walks", "no kprobes %d", seq);
	ss_attr(&ss, "timeline", "%d 100/0", seq);
	struct point_rec pr = { seq, w, users, 1, "", status, NULL, "t0", "t1" };
	if (db_point_record(db, run, &pr, &ss, NULL, err, sizeof(err)))
		fprintf(stderr, "# %s\n", err);
	ss_free(&ss);
}

static int count_groups(void *arg, const struct db_group *g)
{
	int *n = arg;
	(*n)++;
	return !strcmp(g->workload, "stop-here");
}

static int count_rows(void *arg, const struct gbench_row *r)
{
	int *n = arg;
	(*n)++;
	return r->ncounters < 0;
}

static int first_run(void *arg, const struct db_run *r)
{
	snprintf(arg, 64, "%s", r->config_name ? r->config_name : "(null)");
	return 0;
}

int main(void)
{
	struct db db;
	char err[1200], path[600];
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/q.db", dir);
	if (db_open(path, &db, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	int64_t id = 0, r1, r2;
	CHECK(db_run_resolve(&db, "last", &id) == 0, "an empty database has no last run");
	struct run_meta m = { "rev", "host", "6.1", NULL, "host", NULL, "it's \"quoted\"", "text", NULL, NULL, NULL };
	db_run_begin(&db, &m, &r1, err, sizeof(err));
	db_run_begin(&db, &m, &r2, err, sizeof(err));
	point(&db, r1, 1, "aim7", 8, "done", 100);
	point(&db, r1, 2, "aim7", 8, "done", 110);
	point(&db, r1, 3, "aim7", 8, "failed", 5);
	point(&db, r2, 1, "aim7", 16, "done", 90);
	point(&db, r2, 2, "cowstorm", 8, "done", 70);

	CHECK(db_run_resolve(&db, "last", &id) == 1 && id == r2, "last is the newest run");
	CHECK(db_run_resolve(&db, "1", &id) == 1 && id == r1, "an id resolves to itself");
	CHECK(db_run_resolve(&db, "99", &id) == 0, "an unknown id is not found");
	CHECK(db_run_resolve(&db, "1x", &id) == 0 && db_run_resolve(&db, "-1", &id) == 0,
	      "a malformed id is not found");
	char name[64] = "";
	CHECK(db_run_get(&db, r1, first_run, name) == 1 && !strcmp(name, "it's \"quoted\""),
	      "a run's text comes back as written: %s", name);

	double v[8];
	int n = db_point_values(&db, r1, "aim7", 8, "jobs_per_min", v, 8);
	CHECK(n == 2 && v[0] == 100 && v[1] == 110, "values of done points only, in order (%d)", n);
	CHECK(db_point_values(&db, r1, "aim7", 8, "jobs_per_min", v, 1) == 1, "at most cap values are stored");
	CHECK(db_point_values(&db, r1, "aim7", 8, "no_such_metric", v, 8) == 0, "an unknown metric has no values");
	char attr[8];
	CHECK(db_point_attr(&db, r1, "aim7", 8, "timeline", attr, sizeof(attr)) == 1 && !strcmp(attr, "1 100/0"),
	      "an attribute of the first done point (%s)", attr);
	CHECK(db_point_attr(&db, r1, "aim7", 8, "timeline", attr, 4) == 1 && !strcmp(attr, "1 1"),
	      "cut to the buffer (%s)", attr);
	CHECK(db_point_attr(&db, r1, "aim7", 16, "timeline", attr, sizeof(attr)) == 0 &&
		      db_point_attr(&db, r1, "aim7", 8, "kernel", attr, sizeof(attr)) == 0,
	      "no such point, no such attribute: none");

	int64_t both[2] = { r1, r2 };
	int groups = 0;
	CHECK(db_groups_each(&db, both, 2, count_groups, &groups) == 0 && groups == 3,
	      "groups over two runs: aim7/8, aim7/16, cowstorm/8 (%d)", groups);
	char reason[64];
	CHECK(db_unavailable_reason(&db, r1, "rmap_walks", reason, sizeof(reason)) == 0 &&
		      !strncmp(reason, "no kprobes", 10),
	      "an unavailable metric keeps its reason: %s", reason);

	const char *json = "{\"context\": {\"library_version\": \"v1.7.1\", \"library_build_type\": \"release\"},"
			   " \"benchmarks\": [{\"run_name\": \"engine/x/legacy/children:10\", \"run_type\": "
			   "\"aggregate\", \"aggregate_name\": \"mean\", \"real_time\": 5, \"cpu_time\": 4, "
			   "\"time_unit\": \"ns\", \"vmas\": 11, \"iterations\": 3},"
			   " {\"run_name\": \"i\", \"run_type\": \"iteration\", \"time_unit\": \"ns\", "
			   "\"repetition_index\": 1},"
			   " {\"run_name\": \"e\", \"run_type\": \"iteration\", \"error_occurred\": true, "
			   "\"error_message\": \"setup failed\"},"
			   " {\"run_name\": \"j\", \"run_type\": \"iteration\", \"time_unit\": \"ns\", "
			   "\"repetition_index\": -3},"
			   " {\"run_name\": \"k\", \"run_type\": \"iteration\"},"
			   " {\"run_type\": \"aggregate\"}]}";
	char version[64], build[32];
	CHECK(db_gbench_context(&db, json, strlen(json), version, sizeof(version), build, sizeof(build)) == 0 &&
		      !strcmp(version, "v1.7.1") && !strcmp(build, "release"),
	      "the JSON's library version and build type");
	int rows = 0;
	CHECK(db_gbench_rows_each(&db, json, strlen(json), count_rows, &rows) == 0 && rows == 3,
	      "an aggregate, a repetition and an error kept; no name, no unit or a negative repetition skipped "
	      "(%d rows)",
	      rows);
	const char *bad = "{\"benchmarks\": [1, 2";
	CHECK(db_gbench_context(&db, bad, strlen(bad), version, sizeof(version), build, sizeof(build)) < 0,
	      "malformed JSON is an error, not a crash");
	rows = 0;
	CHECK(db_gbench_rows_each(&db, bad, strlen(bad), count_rows, &rows) < 0 && rows == 0,
	      "malformed JSON yields no rows");
	db_close(&db);
	unlink(path);
	char wal[700];
	snprintf(wal, sizeof(wal), "%s-wal", path);
	unlink(wal);
	snprintf(wal, sizeof(wal), "%s-shm", path);
	unlink(wal);
	rmdir(dir);
	return tap_done();
}
