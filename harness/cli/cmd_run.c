/* `rmapbench run CONFIG`: the suite, then its figures and report. */
#include "commands.h"
#include "db.h"
#include "report.h"
#include "suite.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The plan of points, a line each: what a CI matrix splits with --shard. */
static int print_plan(const struct config *cfg)
{
	int n = suite_plan(cfg, NULL, 0);
	struct point_spec *plan = malloc((size_t)(n ? n : 1) * sizeof(*plan));
	if (!plan)
		abort();
	suite_plan(cfg, plan, n);
	printf("# %s: %d points on target %s%s%s", cfg->name, n, cfg->target, strcmp(cfg->target, "vm") ? "" : ", kernel ",
	       strcmp(cfg->target, "vm") ? "" : cfg->kernel);
	if (cfg->shard_count)
		printf(", shard %d of %d", cfg->shard_index, cfg->shard_count);
	printf("\n# seq workload users repetition\n");
	for (int i = 0; i < n; i++)
		printf("%d %s %ld %d\n", plan[i].seq, plan[i].workload, plan[i].users, plan[i].repetition);
	free(plan);
	return 0;
}

int cmd_run(struct config *cfg, const char *db_path, int64_t *run_out)
{
	if (cfg->dry_run) {
		if (run_out)
			*run_out = 0;
		return print_plan(cfg);
	}
	struct suite_result res;
	int rc = run_suite(cfg, db_path, &res);
	if (run_out)
		*run_out = res.run;
	if (!res.status[0]) /* it stopped in its set-up, and has said why */
		return rc;
	char report[PATH_MAX + 32] = "", err[1200];
	struct db db;
	if (db_open(db_path, &db, err, sizeof(err)) < 0) {
		rb_error("%s", err);
	} else {
		if (report_generate(&db, res.run, res.dir, report, sizeof(report)) < 0)
			rb_warn("the report for run %lld is incomplete (see above)", (long long)res.run);
		db_close(&db);
	}
	printf("run %lld: %s%s%s\n", (long long)res.run, res.status, res.note[0] ? ": " : "", res.note);
	printf("database: %s\n", db_path);
	char shown[PATH_MAX + 64];
	if (report[0])
		printf("report: %s\n", rb_path_shown(report, shown, sizeof(shown)));
	return rc;
}
