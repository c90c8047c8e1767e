/* `rmapbench export RUN --format csv|json` (a run's tidy rows) and
 * `rmapbench report RUN` (its figures and HTML report, made again). */
#include "commands.h"
#include "escape.h"
#include "query.h"
#include "reading.h"
#include "run_here.h"
#include "report.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

struct export_state {
	int64_t run;
	int json, n;
};

static int export_run_json(void *arg, const struct db_run *r)
{
	(void)arg;
	const char *names[] = { "revision", "host", "kernel_release", "kernel_config_hash", "target", "variant",
				"kernel_label", "config_name", "config_text", "started_at", "ended_at", "status", "note" };
	const char *vals[] = { r->revision, r->host, r->kernel_release, r->kernel_config_hash, r->target,
			       r->variant, r->kernel_label, r->config_name, r->config_text, r->started_at, r->ended_at,
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
		json_write_string(stdout, text_or_dash(t->workload));
		printf(", \"users\": %ld, \"repetition\": %d, \"point_status\": ", t->users, t->repetition);
		json_write_string(stdout, text_or_dash(t->point_status));
		printf(", \"metric\": ");
		json_write_string(stdout, text_or_dash(t->metric));
		if (t->unavailable) {
			printf(", \"value\": null, \"unavailable\": ");
			json_write_string(stdout, text_or_dash(t->reason));
		} else {
			printf(", \"value\": ");
			json_write_number(stdout, t->value); /* a merged database's inf is null */
			printf(", \"unit\": ");
			json_write_string(stdout, text_or_dash(t->unit));
		}
		putchar('}');
	} else {
		printf("%lld,%lld,", (long long)x->run, (long long)t->point_id);
		csv_write_field(stdout, text_or_dash(t->workload));
		printf(",%ld,%d,", t->users, t->repetition);
		csv_write_field(stdout, text_or_dash(t->point_status));
		putchar(',');
		csv_write_field(stdout, text_or_dash(t->metric));
		if (t->unavailable) {
			printf(",,,");
			csv_write_field(stdout, text_or_dash(t->reason));
		} else {
			printf(",%.17g,", t->value);
			csv_write_field(stdout, text_or_dash(t->unit));
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
	if (reading_open_run(db_path, run, &db, &id) < 0)
		return 1;
	struct export_state x = { id, !strcmp(format, "json"), 0 };
	if (x.json) {
		printf("{\"run\": {");
		if (db_run_get(&db, id, export_run_json, NULL) < 0)
			return reading_failed(&db);
		printf("},\n \"results\": [");
	} else {
		printf("run_id,point_id,workload,users,repetition,point_status,metric,value,unit,unavailable_reason\n");
	}
	if (db_tidy_each(&db, id, export_row, &x) < 0)
		return reading_failed(&db);
	if (x.json)
		printf("\n]}\n");
	db_close(&db);
	return 0;
}

int cmd_report(const char *db_path, const char *run)
{
	struct db db;
	int64_t id;
	if (reading_open_run(db_path, run, &db, &id) < 0)
		return 1;
	char dir[PATH_MAX], path[PATH_MAX + 32], name[32];
	snprintf(name, sizeof(name), "run-%lld", (long long)id);
	if (results_dir(db_path, name, dir, sizeof(dir)) < 0) {
		db_close(&db);
		return 1;
	}
	int rc = report_generate(&db, id, dir, path, sizeof(path));
	db_close(&db);
	char where[PATH_MAX + 64];
	if (path[0])
		printf("report: %s\n", rb_path_shown(path, where, sizeof(where)));
	return rc < 0 ? 1 : 0;
}
