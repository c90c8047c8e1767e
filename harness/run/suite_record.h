/* A suite's run in the database, from its first line to its status:
 * begun under the run lock with its own directory and swap, each point
 * recorded as it ends, ended with what happened. suite.c's alone. */
#ifndef RMAPBENCH_SUITE_RECORD_H
#define RMAPBENCH_SUITE_RECORD_H

#include <limits.h>
#include <stdint.h>

#include "db.h"
#include "point.h"

/* What a suite run came to, for its caller. */
struct suite_result {
	int64_t run;          /* 0 when no run was recorded */
	char status[16];      /* done | failed | aborted */
	char note[300];
	char dir[PATH_MAX];   /* the run's own directory, for its report */
};

struct suite_run {
	struct db *db;          /* the caller's, open for the whole run */
	int64_t run_id;
	char rundir[PATH_MAX], dbdir[PATH_MAX];
	char swappath[1100];
};

/* 0 with res->run, or -1 having said why (a run begun is ended failed). */
int suite_begin(struct suite_run *sr, const struct point_env *env, struct db *db, struct suite_result *res);
/* -1 having said why: the run cannot go on. */
int suite_record_point(struct suite_run *sr, const struct point_spec *ps, const struct point_out *po);
/* failed: the points that failed, or -1 when recording did; the exit
 * status (0 done, 1 failed, 130 aborted) with res filled. */
int suite_end(struct suite_run *sr, int failed, int recorded, int total, struct suite_result *res);

#endif
