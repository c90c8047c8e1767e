/* `rmapbench runs` and `rmapbench show RUN`: the recorded runs, a line
 * each, and one run's statistics per workload, users and metric, what
 * could not be measured and why, its failed points, its kernel errors
 * and its crossover. */
#include "commands.h"
#include "crossover.h"
#include "kernel_errors.h"
#include "query.h"
#include "reading.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
	if (reading_open(db_path, &db) < 0)
		return 1;
	printf("%-5s %-8s %-7s %-14s %-21s %6s  %s\n", "id", "status", "target", "config", "started", "points",
	       "host / kernel");
	if (db_runs_each(&db, print_run_line, NULL) < 0)
		return reading_failed(&db);
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

static int print_kernel_error(void *arg, const struct db_kernel_error *e)
{
	int *first = arg;
	if (*first)
		printf("\nkernel errors (the first report of each: rmapbench report RUN):\n");
	*first = 0;
	printf("  point %d (%s users=%ld): %ld x %s\n", e->seq, shown(e->workload), e->users, e->count,
	       shown(e->signature));
	return 0;
}

int cmd_show(const char *db_path, const char *run)
{
	struct db db;
	int64_t id;
	if (reading_open_run(db_path, run, &db, &id) < 0)
		return 1;
	char prev[128] = "";
	int first = 1;
	if (db_run_get(&db, id, print_run_head, NULL) < 0 || db_metric_stats_each(&db, id, print_stats, prev) < 0 ||
	    db_unavailable_each(&db, id, print_unavailable, &first) < 0 ||
	    db_points_not_done_each(&db, id, print_not_done, NULL) < 0 ||
	    db_kernel_errors_each(&db, id, print_kernel_error, &(int){ 1 }) < 0)
		return reading_failed(&db);
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
