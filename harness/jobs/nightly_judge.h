/* A night's runs judged: a part against its baseline, the control's pair
 * against each other. Each fills one column of the night's outputs: a
 * comparison c of its sides a and b. nightly.c's alone. */
#ifndef RMAPBENCH_NIGHTLY_JUDGE_H
#define RMAPBENCH_NIGHTLY_JUDGE_H

#include "config.h"
#include "night_run.h"
#include "verdict.h"

/* Run p->run against its baseline (explicit: --baseline, else found):
 * 1 a regression, 0 none, -1 no baseline yet (said, and in c), 2 an
 * error (said). */
int judge_part(struct db *db, struct night_run *p, const char *explicit, struct side *a, struct side *b,
		  struct comparison *c);
/* The control's runs, good then known bad, compared: 0 it regressed on
 * reference_metric, 2 it did not or could not be compared (said). */
int judge_control(struct db *db, const struct config *cfg, const int64_t runs[2], struct side *a, struct side *b,
		  struct comparison *c);

#endif
