/* What the nightly knows of one of its runs, read back from the
 * database: its suite, machine, kernel or design, status and target. */
#ifndef RMAPBENCH_NIGHT_RUN_H
#define RMAPBENCH_NIGHT_RUN_H

#include <stdint.h>

#include "db.h"

struct night_run {
	int64_t run;
	char suite[96], fingerprint[320], kernel_label[300], status[16], target[16];
};

/* r->run's facts into r: 1, or 0 when the run is not in db. */
int night_run_facts(struct db *db, struct night_run *r);
/* --baseline RUN, a run of suite in db: 0 with *run, or 2 having said
 * why. */
int night_baseline_given(struct db *db, const char *spec, const char *suite, int64_t *run);

#endif
