/* The report's profile sections (report_profile.c), for report.c. */
#ifndef RMAPBENCH_REPORT_PROFILE_H
#define RMAPBENCH_REPORT_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "verdict.h"

/* A flame graph per (workload, users) of run that kept stacks, and each
 * one's folded stacks beside it (DIR/flame-N.svg, DIR/flame-N.folded). */
void html_profile(FILE *f, struct db *db, int64_t run, const char *dir);
/* For each of the n comparisons whose sides both kept stacks, a
 * differential flame graph per (workload, users) both have. */
void html_profile_diff(FILE *f, const struct comparison *c, const struct side *a, const struct side *b, int n,
		       const char *dir);

#endif
