/* Running a suite: every point of its matrix on its target, recorded. */
#ifndef RMAPBENCH_SUITE_H
#define RMAPBENCH_SUITE_H

#include <limits.h>
#include <stdint.h>

#include "config.h"

struct suite_result {
	int64_t run;          /* 0 when no run was recorded */
	char status[16];      /* done | failed | aborted */
	char note[300];
	char dir[PATH_MAX];   /* the run's own directory, for its report */
};

/* Exit status: 0 done, 1 failed (a point or the setup), 130 aborted. */
int run_suite(struct config *cfg, const char *db_path, struct suite_result *res);

#endif
