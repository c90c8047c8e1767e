/* Kernel errors in the HTML report (report_klog.c). */
#ifndef RMAPBENCH_REPORT_KLOG_H
#define RMAPBENCH_REPORT_KLOG_H

#include <stdint.h>
#include <stdio.h>

#include "db.h"
#include "verdict.h"

/* A run's kernel errors, point by point, each first report whole. */
void html_kernel_errors(FILE *f, struct db *db, int64_t run);
/* The reports of a comparison's signature rows. */
void html_verdict_reports(FILE *f, const struct comparison *c);

#endif
