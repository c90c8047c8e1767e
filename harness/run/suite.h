/* Running a suite: every point of its matrix on its target, recorded. */
#ifndef RMAPBENCH_SUITE_H
#define RMAPBENCH_SUITE_H

#include <limits.h>
#include <stdint.h>

#include "config.h"
#include "point.h"
#include "suite_record.h"


/* The points this run would make, in order (repetition-major), this
 * shard's only under --shard i/n: point k of the whole matrix (from 0)
 * belongs to shard k mod n + 1, the same on every machine. How many,
 * at most cap stored. */
int suite_plan(const struct config *cfg, struct point_spec *out, int cap);
/* --shard "i/n": 0, or -1 with err. */
int suite_parse_shard(struct config *cfg, const char *spec, char *err, size_t errlen);

/* Into db, the caller's open database (its path names the run lock and
 * the results folder). Exit status: 0 done, 1 failed (a point or the
 * setup), 130 aborted. */
int run_suite(struct config *cfg, struct db *db, struct suite_result *res);

#endif
