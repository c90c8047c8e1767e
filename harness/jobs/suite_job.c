/* A suite run as a command makes it (suite_job.h). */
#include "suite_job.h"
#include "report.h"
#include "suite.h"
#include "target.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void suite_job_plan(const struct config *cfg)
{
	int n = suite_plan(cfg, NULL, 0);
	struct point_spec *plan = malloc((size_t)(n ? n : 1) * sizeof(*plan));
	if (!plan)
		abort();
	suite_plan(cfg, plan, n);
	const struct target *t = target_find(cfg->target);
	bool guest = t && t->boots_kernel;
	printf("# %s: %d points on target %s%s%s", cfg->name, n, cfg->target, guest ? ", kernel " : "",
	       guest ? cfg->kernel : "");
	if (cfg->shard_count)
		printf(", shard %d of %d", cfg->shard_index, cfg->shard_count);
	printf("\n# seq workload users repetition\n");
	for (int i = 0; i < n; i++)
		printf("%d %s %ld %d\n", plan[i].seq, plan[i].workload, plan[i].users, plan[i].repetition);
	free(plan);
}

/* The run, and the lines that say how it ended: res.status empty when it
 * stopped in its set-up (said). */
static int run_and_say(struct config *cfg, struct db *db, struct suite_result *res, int64_t *run_out)
{
	int rc = run_suite(cfg, db, res);
	if (run_out)
		*run_out = res->run;
	if (res->status[0])
		printf("run %lld: %s%s%s\ndatabase: %s\n", (long long)res->run, res->status, res->note[0] ? ": " : "",
		       res->note, db->path);
	return rc;
}

int suite_job_bare(struct config *cfg, struct db *db, int64_t *run_out)
{
	struct suite_result res;
	return run_and_say(cfg, db, &res, run_out);
}

int suite_job(struct config *cfg, struct db *db, int64_t *run_out)
{
	struct suite_result res;
	int rc = run_and_say(cfg, db, &res, run_out);
	char report[PATH_MAX + 32] = "", shown[PATH_MAX + 64];
	if (!res.status[0])
		return rc;
	if (report_generate(db, res.run, res.dir, report, sizeof(report)) < 0)
		rb_warn("the report for run %lld is incomplete (see above)", (long long)res.run);
	if (report[0])
		printf("report: %s\n", rb_path_shown(report, shown, sizeof(shown)));
	return rc;
}
