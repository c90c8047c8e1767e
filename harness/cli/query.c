/* Reading the database back: runs, show, export, report. */
#include "commands.h"
#include "crossover.h"
#include "db.h"
#include "escape.h"
#include "query.h"
#include "record.h"
#include "report.h"
#include "util.h"

#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Written to where it can be (a killed run found there is marked aborted,
 * an old schema migrated), else read-only: a database on a read-only
 * filesystem, or one we may not write, can still be read. */
static int open_db(const char *path, struct db *db)
{
	char err[1200], rerr[1200];
	if (db_open(path, db, err, sizeof(err)) == 0)
		return 0;
	if (*path && access(path, F_OK) == 0 && db_open_readonly(path, db, rerr, sizeof(rerr)) == 0)
		return 0;
	rb_error("%s", err);
	return -1;
}

static int query_failed(struct db *db)
{
	rb_error("%s: %s", db->path, db_errmsg(db));
	db_close(db);
	return 1;
}

/* RUN is an id or "last"; -1 (said) when there is no such run. */
static int64_t resolve_run(struct db *db, const char *run)
{
	int64_t id = -1;
	int found = db_run_resolve(db, run, &id);
	if (found < 0)
		rb_error("%s: %s", db->path, db_errmsg(db));
	else if (!found && strcmp(run, "last") && (atoll(run) <= 0 || strspn(run, "0123456789") != strlen(run)))
		rb_error("run '%s': expected a run id or 'last'", run);
	else if (!found)
		rb_error("%s: no run '%s'", db->path, run);
	return found > 0 ? id : -1;
}

/* The database and the run a command is about; -1 (said) when either is
 * missing. */
static int open_run(const char *db_path, const char *run, struct db *db, int64_t *id)
{
	if (open_db(db_path, db) < 0)
		return -1;
	*id = resolve_run(db, run);
	if (*id < 0) {
		db_close(db);
		return -1;
	}
	return 0;
}

static const char *text(const char *s)
{
	return s ? s : "-";
}

/* Text from the database on its way to a terminal: its control bytes
 * (a name that sets the title or clears the screen) as '?'. A few at a
 * time in one printf: rotating buffers. */
static const char *shown(const char *s)
{
	static char bufs[12][512];
	static int next;
	char *b = bufs[next++ % 12];
	term_safe_copy(b, sizeof(bufs[0]), text(s));
	return b;
}

static int print_run_line(void *arg, const struct db_run *r)
{
	(void)arg;
	printf("%-5lld %-8s %-7s %-14s %-21s %6d  %s / %s", (long long)r->id, shown(r->status), shown(r->target),
	       shown(r->config_name), shown(r->started_at), r->npoints, shown(r->host), shown(r->kernel_release));
	if (r->note)
		printf("  (%s)", r->note);
	putchar('\n');
	return 0;
}

int cmd_runs(const char *db_path)
{
	struct db db;
	if (open_db(db_path, &db) < 0)
		return 1;
	printf("%-5s %-8s %-7s %-14s %-21s %6s  %s\n", "id", "status", "target", "config", "started", "points",
	       "host / kernel");
	if (db_runs_each(&db, print_run_line, NULL) < 0)
		return query_failed(&db);
	db_close(&db);
	return 0;
}

static int print_run_head(void *arg, const struct db_run *r)
{
	(void)arg;
	printf("run %lld: %s, %s on %s (%s, kernel config %s), rmapbench %s\n  %s .. %s%s%s\n", (long long)r->id,
	       shown(r->config_name), shown(r->status), shown(r->host), shown(r->kernel_release),
	       shown(r->kernel_config_hash), shown(r->revision), shown(r->started_at), shown(r->ended_at),
	       r->note ? "\n  note: " : "", r->note ? shown(r->note) : "");
	return 0;
}

static int print_stats(void *arg, const struct db_metric_stats *m)
{
	char *prev = arg, key[128];
	snprintf(key, sizeof(key), "%s users=%ld", shown(m->workload), m->users);
	if (strcmp(key, prev)) {
		printf("\n%s\n  %-32s %4s %14s %12s %14s %14s  %s\n", key, "metric", "n", "mean", "stddev", "min", "max",
		       "unit");
		snprintf(prev, 128, "%s", key);
	}
	printf("  %-32s %4d %14.6g ", shown(m->metric), m->n, m->mean);
	if (isnan(m->var))
		printf("%12s ", "(n=1)");
	else
		printf("%12.4g ", sqrt(m->var));
	printf("%14.6g %14.6g  %s\n", m->min, m->max, shown(m->unit));
	return 0;
}

static int print_unavailable(void *arg, const struct db_unavailable *u)
{
	int *first = arg;
	if (*first)
		printf("\nunavailable:\n");
	*first = 0;
	printf("  %-32s %s (%d points)\n", shown(u->metric), shown(u->reason), u->points);
	return 0;
}

static int print_not_done(void *arg, const struct db_point *p)
{
	(void)arg;
	printf("\npoint %d (%s users=%ld rep=%d) %s: %s\n", p->seq, shown(p->workload), p->users, p->repetition,
	       shown(p->status), shown(p->error));
	return 0;
}

int cmd_show(const char *db_path, const char *run)
{
	struct db db;
	int64_t id;
	if (open_run(db_path, run, &db, &id) < 0)
		return 1;
	char prev[128] = "";
	int first = 1;
	if (db_run_get(&db, id, print_run_head, NULL) < 0 || db_metric_stats_each(&db, id, print_stats, prev) < 0 ||
	    db_unavailable_each(&db, id, print_unavailable, &first) < 0 ||
	    db_points_not_done_each(&db, id, print_not_done, NULL) < 0)
		return query_failed(&db);
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

struct export_state {
	int64_t run;
	int json, n;
};

static int export_run_json(void *arg, const struct db_run *r)
{
	(void)arg;
	const char *names[] = { "revision", "host", "kernel_release", "kernel_config_hash", "target", "variant",
				"config_name", "config_text", "started_at", "ended_at", "status", "note" };
	const char *vals[] = { r->revision, r->host, r->kernel_release, r->kernel_config_hash, r->target,
			       r->variant, r->config_name, r->config_text, r->started_at, r->ended_at,
			       r->status, r->note };
	printf("\"id\": %lld", (long long)r->id);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		printf(", \"%s\": ", names[i]);
		json_write_string(stdout, vals[i]);
	}
	return 0;
}

static int export_row(void *arg, const struct db_tidy_row *t)
{
	struct export_state *x = arg;
	if (x->json) {
		printf("%s\n  {\"point_id\": %lld, \"workload\": ", x->n ? "," : "", (long long)t->point_id);
		json_write_string(stdout, text(t->workload));
		printf(", \"users\": %ld, \"repetition\": %d, \"point_status\": ", t->users, t->repetition);
		json_write_string(stdout, text(t->point_status));
		printf(", \"metric\": ");
		json_write_string(stdout, text(t->metric));
		if (t->unavailable) {
			printf(", \"value\": null, \"unavailable\": ");
			json_write_string(stdout, text(t->reason));
		} else {
			printf(", \"value\": ");
			json_write_number(stdout, t->value); /* a merged database's inf is null */
			printf(", \"unit\": ");
			json_write_string(stdout, text(t->unit));
		}
		putchar('}');
	} else {
		printf("%lld,%lld,", (long long)x->run, (long long)t->point_id);
		csv_write_field(stdout, text(t->workload));
		printf(",%ld,%d,", t->users, t->repetition);
		csv_write_field(stdout, text(t->point_status));
		putchar(',');
		csv_write_field(stdout, text(t->metric));
		if (t->unavailable) {
			printf(",,,");
			csv_write_field(stdout, text(t->reason));
		} else {
			printf(",%.17g,", t->value);
			csv_write_field(stdout, text(t->unit));
			putchar(',');
		}
		putchar('\n');
	}
	x->n++;
	return 0;
}

int cmd_export(const char *db_path, const char *run, const char *format)
{
	if (strcmp(format, "csv") && strcmp(format, "json")) {
		rb_error("--format %s: expected csv or json", format);
		return 2;
	}
	struct db db;
	int64_t id;
	if (open_run(db_path, run, &db, &id) < 0)
		return 1;
	struct export_state x = { id, !strcmp(format, "json"), 0 };
	if (x.json) {
		printf("{\"run\": {");
		if (db_run_get(&db, id, export_run_json, NULL) < 0)
			return query_failed(&db);
		printf("},\n \"results\": [");
	} else {
		printf("run_id,point_id,workload,users,repetition,point_status,metric,value,unit,unavailable_reason\n");
	}
	if (db_tidy_each(&db, id, export_row, &x) < 0)
		return query_failed(&db);
	if (x.json)
		printf("\n]}\n");
	db_close(&db);
	return 0;
}

int cmd_report(const char *db_path, const char *run)
{
	struct db db;
	int64_t id;
	if (open_run(db_path, run, &db, &id) < 0)
		return 1;
	char dir[PATH_MAX], path[PATH_MAX + 32], name[32];
	snprintf(name, sizeof(name), "run-%lld", (long long)id);
	if (results_dir(db_path, name, dir, sizeof(dir)) < 0) {
		db_close(&db);
		return 1;
	}
	int rc = report_generate(&db, id, dir, path, sizeof(path));
	db_close(&db);
	char shown[PATH_MAX + 64];
	if (path[0])
		printf("report: %s\n", rb_path_shown(path, shown, sizeof(shown)));
	return rc < 0 ? 1 : 0;
}
