/* Reading the database back: runs, show, export, report. */
#include "commands.h"
#include "crossover.h"
#include "db.h"
#include "report.h"
#include "util.h"

#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int open_db(const char *path, struct db *db)
{
	char err[1200];
	if (db_open(path, db, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return -1;
	}
	return 0;
}

/* RUN is an id or "last". */
static int64_t resolve_run(struct db *db, const char *run)
{
	sqlite3_stmt *st;
	int64_t id = -1;
	if (!strcmp(run, "last")) {
		if (sqlite3_prepare_v2(db->h, "SELECT max(id) FROM runs", -1, &st, NULL) == SQLITE_OK) {
			if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
				id = sqlite3_column_int64(st, 0);
			sqlite3_finalize(st);
		}
	} else {
		char *end;
		long long v = strtoll(run, &end, 10);
		if (*end || end == run || v <= 0) {
			rb_error("run '%s': expected a run id or 'last'", run);
			return -1;
		}
		if (sqlite3_prepare_v2(db->h, "SELECT id FROM runs WHERE id = ?", -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, v);
			if (sqlite3_step(st) == SQLITE_ROW)
				id = v;
			sqlite3_finalize(st);
		}
	}
	if (id < 0)
		rb_error("%s: no run '%s'", db->path, run);
	return id;
}

static const char *text(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	return s ? s : "-";
}

int cmd_runs(const char *db_path)
{
	struct db db;
	if (open_db(db_path, &db) < 0)
		return 1;
	sqlite3_stmt *st;
	const char *sql = "SELECT r.id, r.status, r.target, r.config_name, r.started_at, "
			  "(SELECT count(*) FROM points p WHERE p.run_id = r.id), r.host, r.kernel_release, r.note "
			  "FROM runs r ORDER BY r.id";
	if (sqlite3_prepare_v2(db.h, sql, -1, &st, NULL) != SQLITE_OK) {
		rb_error("%s: %s", db_path, sqlite3_errmsg(db.h));
		db_close(&db);
		return 1;
	}
	printf("%-5s %-8s %-7s %-14s %-21s %6s  %s\n", "id", "status", "target", "config", "started", "points",
	       "host / kernel");
	while (sqlite3_step(st) == SQLITE_ROW) {
		printf("%-5lld %-8s %-7s %-14s %-21s %6d  %s / %s", (long long)sqlite3_column_int64(st, 0), text(st, 1),
		       text(st, 2), text(st, 3), text(st, 4), sqlite3_column_int(st, 5), text(st, 6), text(st, 7));
		if (sqlite3_column_type(st, 8) != SQLITE_NULL)
			printf("  (%s)", text(st, 8));
		putchar('\n');
	}
	sqlite3_finalize(st);
	db_close(&db);
	return 0;
}

int cmd_show(const char *db_path, const char *run)
{
	struct db db;
	if (open_db(db_path, &db) < 0)
		return 1;
	int64_t id = resolve_run(&db, run);
	if (id < 0) {
		db_close(&db);
		return 1;
	}
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db.h,
			   "SELECT config_name, status, target, host, kernel_release, kernel_config_hash, revision, "
			   "started_at, ended_at, note FROM runs WHERE id = ?",
			   -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		printf("run %lld: %s, %s on %s (%s, kernel config %s), rmapbench %s\n  %s .. %s%s%s\n",
		       (long long)id, text(st, 0), text(st, 1), text(st, 3), text(st, 4), text(st, 5), text(st, 6),
		       text(st, 7), text(st, 8), sqlite3_column_type(st, 9) == SQLITE_NULL ? "" : "\n  note: ",
		       sqlite3_column_type(st, 9) == SQLITE_NULL ? "" : text(st, 9));
	sqlite3_finalize(st);

	/* n, mean, variance (sample, n-1) in SQL, min, max per workload x users x metric */
	const char *sql = "SELECT p.workload, p.users, r.metric, r.unit, count(*), avg(r.value), "
			  "CASE WHEN count(*) > 1 THEN (sum(r.value * r.value) - sum(r.value) * sum(r.value) / count(*)) "
			  "/ (count(*) - 1) END, min(r.value), max(r.value) "
			  "FROM results r JOIN points p ON p.id = r.point_id WHERE r.run_id = ? "
			  "GROUP BY p.workload, p.users, r.metric ORDER BY p.workload, p.users, r.metric";
	if (sqlite3_prepare_v2(db.h, sql, -1, &st, NULL) != SQLITE_OK) {
		rb_error("%s: %s", db_path, sqlite3_errmsg(db.h));
		db_close(&db);
		return 1;
	}
	sqlite3_bind_int64(st, 1, id);
	char prev[128] = "";
	while (sqlite3_step(st) == SQLITE_ROW) {
		char key[128];
		snprintf(key, sizeof(key), "%s users=%lld", text(st, 0), (long long)sqlite3_column_int64(st, 1));
		if (strcmp(key, prev)) {
			printf("\n%s\n  %-32s %4s %14s %12s %14s %14s  %s\n", key, "metric", "n", "mean", "stddev", "min",
			       "max", "unit");
			snprintf(prev, sizeof(prev), "%s", key);
		}
		printf("  %-32s %4d %14.6g ", text(st, 2), sqlite3_column_int(st, 4), sqlite3_column_double(st, 5));
		if (sqlite3_column_type(st, 6) == SQLITE_NULL)
			printf("%12s ", "(n=1)");
		else
			printf("%12.4g ", sqrt(fmax(sqlite3_column_double(st, 6), 0)));
		printf("%14.6g %14.6g  %s\n", sqlite3_column_double(st, 7), sqlite3_column_double(st, 8), text(st, 3));
	}
	sqlite3_finalize(st);

	sqlite3_prepare_v2(db.h,
			   "SELECT metric, reason, count(*) FROM unavailable WHERE run_id = ? GROUP BY metric, reason "
			   "ORDER BY metric",
			   -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	int first = 1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (first)
			printf("\nunavailable:\n");
		first = 0;
		printf("  %-32s %s (%d points)\n", text(st, 0), text(st, 1), sqlite3_column_int(st, 2));
	}
	sqlite3_finalize(st);
	sqlite3_prepare_v2(db.h, "SELECT seq, workload, users, repetition, status, error FROM points "
				 "WHERE run_id = ? AND status != 'done' ORDER BY seq",
			   -1, &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW)
		printf("\npoint %d (%s users=%d rep=%d) %s: %s\n", sqlite3_column_int(st, 0), text(st, 1),
		       sqlite3_column_int(st, 2), sqlite3_column_int(st, 3), text(st, 4), text(st, 5));
	sqlite3_finalize(st);
	struct crossover c[16];
	int nc = crossover_find(&db, id, c, 16);
	for (int i = 0; i < nc; i++) {
		char line[256];
		crossover_describe(&c[i], line, sizeof(line));
		printf("%s%s\n", i ? "  " : "\nAIM7 crossover (jobs/min per user <= 10):\n  ", line);
	}
	db_close(&db);
	return 0;
}

static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void json_string(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

int cmd_export(const char *db_path, const char *run, const char *format)
{
	if (strcmp(format, "csv") && strcmp(format, "json")) {
		rb_error("--format %s: expected csv or json", format);
		return 2;
	}
	struct db db;
	if (open_db(db_path, &db) < 0)
		return 1;
	int64_t id = resolve_run(&db, run);
	if (id < 0) {
		db_close(&db);
		return 1;
	}
	int json = !strcmp(format, "json");
	sqlite3_stmt *st;
	/* results and unavailable rows in one tidy stream: value or reason */
	const char *sql = "SELECT p.id, p.workload, p.users, p.repetition, p.status, r.metric, r.value, r.unit, NULL "
			  "FROM results r JOIN points p ON p.id = r.point_id WHERE r.run_id = ?1 "
			  "UNION ALL SELECT p.id, p.workload, p.users, p.repetition, p.status, u.metric, NULL, NULL, "
			  "u.reason FROM unavailable u JOIN points p ON p.id = u.point_id WHERE u.run_id = ?1 "
			  "ORDER BY 1, 6";
	if (sqlite3_prepare_v2(db.h, sql, -1, &st, NULL) != SQLITE_OK) {
		rb_error("%s: %s", db_path, sqlite3_errmsg(db.h));
		db_close(&db);
		return 1;
	}
	sqlite3_bind_int64(st, 1, id);
	if (json) {
		sqlite3_stmt *r;
		sqlite3_prepare_v2(db.h,
				   "SELECT id, revision, host, kernel_release, kernel_config_hash, target, variant, "
				   "config_name, config_text, started_at, ended_at, status, note FROM runs WHERE id = ?",
				   -1, &r, NULL);
		sqlite3_bind_int64(r, 1, id);
		printf("{\"run\": {");
		if (sqlite3_step(r) == SQLITE_ROW) {
			for (int c = 0; c < sqlite3_column_count(r); c++) {
				printf("%s", c ? ", " : "");
				json_string(sqlite3_column_name(r, c));
				printf(": ");
				if (sqlite3_column_type(r, c) == SQLITE_NULL)
					printf("null");
				else if (c == 0)
					printf("%lld", (long long)sqlite3_column_int64(r, c));
				else
					json_string((const char *)sqlite3_column_text(r, c));
			}
		}
		sqlite3_finalize(r);
		printf("},\n \"results\": [");
	} else {
		printf("run_id,point_id,workload,users,repetition,point_status,metric,value,unit,unavailable_reason\n");
	}
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int unavailable = sqlite3_column_type(st, 6) == SQLITE_NULL;
		if (json) {
			printf("%s\n  {\"point_id\": %lld, \"workload\": ", n ? "," : "", (long long)sqlite3_column_int64(st, 0));
			json_string(text(st, 1));
			printf(", \"users\": %lld, \"repetition\": %d, \"point_status\": ",
			       (long long)sqlite3_column_int64(st, 2), sqlite3_column_int(st, 3));
			json_string(text(st, 4));
			printf(", \"metric\": ");
			json_string(text(st, 5));
			if (unavailable) {
				printf(", \"value\": null, \"unavailable\": ");
				json_string(text(st, 8));
			} else {
				printf(", \"value\": %.17g, \"unit\": ", sqlite3_column_double(st, 6));
				json_string(text(st, 7));
			}
			putchar('}');
		} else {
			printf("%lld,%lld,", (long long)id, (long long)sqlite3_column_int64(st, 0));
			csv_field(text(st, 1));
			printf(",%lld,%d,%s,", (long long)sqlite3_column_int64(st, 2), sqlite3_column_int(st, 3),
			       text(st, 4));
			csv_field(text(st, 5));
			if (unavailable) {
				printf(",,,");
				csv_field(text(st, 8));
			} else {
				printf(",%.17g,", sqlite3_column_double(st, 6));
				csv_field(text(st, 7));
				putchar(',');
			}
			putchar('\n');
		}
		n++;
	}
	if (json)
		printf("\n]}\n");
	sqlite3_finalize(st);
	db_close(&db);
	return 0;
}

int cmd_report(const char *db_path, const char *run)
{
	struct db db;
	if (open_db(db_path, &db) < 0)
		return 1;
	int64_t id = resolve_run(&db, run);
	if (id < 0) {
		db_close(&db);
		return 1;
	}
	char tmp[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 32];
	snprintf(tmp, sizeof(tmp), "%s", db_path);
	snprintf(dir, sizeof(dir), "%s/run-%lld", dirname(tmp), (long long)id);
	rb_mkdir_p(dir);
	int rc = report_generate(&db, id, dir, path, sizeof(path));
	db_close(&db);
	if (path[0])
		printf("report: %s\n", path);
	return rc < 0 ? 1 : 0;
}
