/* `compare A B` as a job: two sides of runs, each from this database or
 * another (opened read-only), compare's verdicts between them, their
 * outputs, and two runs' crossovers with their figure. */
#ifndef RMAPBENCH_COMPARE_RUNS_H
#define RMAPBENCH_COMPARE_RUNS_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"

struct compare_opts {
	const char *junit, *markdown; /* files for the verdicts, or NULL */
	bool crossover;               /* one run a side: their crossovers */
};

/* A and B are RUN[,RUN...], RUN: ID, last, last~N or DB:ID. 0 no
 * regression, 1 at least one, 2 usage or data (said). */
int compare_runs(const char *db_path, const char *a, const char *b, const struct compare_opts *o);
/* Two runs' crossovers and their figure, in the database's
 * compare-A-B folder (harness/report/crossover_report.c). */
void crossover_report_runs(struct db *db, const int64_t runs[2], const char *labels[2]);

#endif
