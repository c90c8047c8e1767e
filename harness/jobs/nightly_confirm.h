/* A night's regression confirmed before it fails CI. The anchors re-run
 * before they report (Nanosoldier re-runs flagged benchmarks, lkp
 * re-tests a culprit against its parent): a slow minute on a shared
 * machine is judged as a regression of the code unless the flagged
 * points are run again, the baseline's configuration beside tonight's, A
 * B A B, so that a slow minute hits both. nightly.c's alone. */
#ifndef RMAPBENCH_NIGHTLY_CONFIRM_H
#define RMAPBENCH_NIGHTLY_CONFIRM_H

#include <stdint.h>

#include "config.h"
#include "night_run.h"
#include "verdict.h"

/* Runs each side's configuration again this many times, interleaved. */
#define CONFIRM_ROUNDS 2

/* c, part p judged against run base, with regressions: the flagged
 * (workload, users) of a host or vm run re-run from the two runs' stored
 * configs, A B A B, and judged again. A regression that repeats stays
 * one; one that does not becomes V_NOT_CONFIRMED, its note holding both
 * results. Kernel errors, failed runs and the engine's parts are not
 * re-run: they stay as judged. 1 a regression remains, 0 none, 130
 * interrupted. */
int night_confirm(struct db *db, const struct night_run *p, int64_t base, struct comparison *c);
/* Every regression and not-confirmed row of c into the night's flags. */
int night_flags_record(struct db *db, int64_t run, const struct comparison *c);

#endif
