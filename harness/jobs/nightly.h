/* `nightly` as a job: the suite (configs/nightly.conf unless --config)
 * and the parts its config asks for (nightly_parts.c, one line a part),
 * each recorded as a nightly run and compared with its baseline: the
 * pinned one (baseline set), else the last nightly of the same suite on a
 * machine of the same fingerprint that ended done and did not regress
 * (the same kernel for vm). With no baseline yet a part is recorded and
 * said to be the first. Then the positive control, whose regression on
 * reference_metric must show. Exit status: 0 no regression, 1 a
 * regression (a failed run where the baseline's was done counts as one),
 * 2 config, infrastructure or a control that saw nothing, 130 interrupted. */
#ifndef RMAPBENCH_NIGHTLY_H
#define RMAPBENCH_NIGHTLY_H

#include <stdint.h>

#include "config.h"
#include "db.h"
#include "night_run.h"

#define NIGHTLY_DEFAULT_CONFIG "configs/nightly.conf"

struct nightly_opts {
	const char *baseline;        /* --baseline RUN for the suite, or NULL */
	const char *junit, *markdown; /* every part's verdicts, or NULL */
};

/* The config and --baseline (in db; neither for a dry run) checked
 * before a night's work: 0, or 2 having said why. */
int nightly_check(const struct config *cfg, struct db *db, const char *baseline);
/* --dry-run: what each part would run, from the parts' table. */
void nightly_plan(const struct config *cfg);
/* The night: every part run, judged, written; the exit status. */
int nightly_run(struct config *cfg, struct db *db, const struct nightly_opts *o);

#endif
