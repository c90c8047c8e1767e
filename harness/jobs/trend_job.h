/* `trend` as a job: a suite's nights (and its nightly parts', SUITE-vm,
 * -walkcost, -bench), or every suite's, on each machine that ran them:
 * change points found, the page written, the summary or JSON printed,
 * and --check's verdict. The nightly writes its suite's page with it. */
#ifndef RMAPBENCH_TREND_JOB_H
#define RMAPBENCH_TREND_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "db.h"

struct trend_job_opts {
	const char *suite;  /* NULL: every suite with nights */
	const char *metric; /* NULL: all */
	int nights;         /* the newest N; 0 all */
	const char *since;  /* NULL: all */
	bool json, check, quiet; /* quiet: the page alone, nothing printed */
	const struct config *cfg; /* headline_metrics, trend_check_nights */
};

/* 0, 1 --check found a regression, 2 an error (said); the page's path
 * into page ("" none). */
int trend_job(struct db *db, const struct trend_job_opts *o, char *page, size_t plen);
/* The page's folder for suite (NULL: every suite), as results_dir names
 * it: a name that is safe in a path whatever the suite is called. */
void trend_dir_name(const char *suite, char *name, size_t len);

#endif
