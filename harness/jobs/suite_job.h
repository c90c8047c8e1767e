/* A suite run as a command makes it: its plan printed under --dry-run,
 * else the run, its report and the lines that say where both are. The
 * job every suite-shaped command shares: run, kernel run, compare-kernels,
 * nightly and bisect. */
#ifndef RMAPBENCH_SUITE_JOB_H
#define RMAPBENCH_SUITE_JOB_H

#include <stdint.h>

#include "config.h"
#include "db.h"

/* The plan of points, a line each: what a CI matrix splits with --shard. */
void suite_job_plan(const struct config *cfg);
/* cfg into db (the caller's, open), then the run's report; run_out (may
 * be NULL) gets the run's id, 0 if none was recorded. The exit status of
 * run_suite (suite.h). */
int suite_job(struct config *cfg, struct db *db, int64_t *run_out);
/* The same without the report (a bisect's steps: `rmapbench report RUN`
 * makes one when it is wanted). */
int suite_job_bare(struct config *cfg, struct db *db, int64_t *run_out);

#endif
