/* Two runs side by side (compare-kernels): per (workload, users) and
 * headline metric, both means, the change, and Welch's t-test at 95% over
 * the repetitions. */
#ifndef RMAPBENCH_COMPARE_H
#define RMAPBENCH_COMPARE_H

#include <stdint.h>

#include "db.h"

/* Prints the table and a closing count of the rows that differ; -1 on a
 * database error (said). */
int compare_runs_print(struct db *db, const int64_t runs[2], const char *labels[2]);

#endif
