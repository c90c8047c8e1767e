/* Two runs' AIM7 crossovers side by side, as compare-kernels and
 * `compare --crossover` print them. */
#ifndef RMAPBENCH_CROSSOVER_REPORT_H
#define RMAPBENCH_CROSSOVER_REPORT_H

#include <stdint.h>

#include "db.h"

/* Each run's crossovers, their ratio where both crossed, and the
 * crossover figure into dir (none when dir is NULL). */
void crossover_report(struct db *db, const char *dir, const int64_t runs[2], const char *labels[2]);

#endif
