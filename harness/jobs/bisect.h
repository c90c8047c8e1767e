/* `bisect` as a job: the first commit of a git tree's first-parent
 * history GOOD..BAD whose run of a config (in a guest, target vm)
 * regresses against GOOD's on a metric, as `git bisect` would find it with
 * compare's verdicts as the test; or the first patch of a quilt-style
 * series, made a git history first (bisect_series).
 *
 *   GOOD and BAD run; BAD must regress against GOOD on M (else exit 2)
 *   bisect `git rev-list --first-parent GOOD..BAD`: each step built and
 *     run, judged against GOOD's run on its points done; one that does not
 *     build or has no point done is skipped, as `git bisect skip`
 *   the first bad commit and its parent run once more: the regression
 *     must repeat before the commit is named
 *
 * Each step is a run tagged "bisect" holding kernel=git:PATH@HASH in its
 * config text, so a bisect killed and started again reuses every step
 * it has. The database is the caller's, open from the first step to the
 * last. */
#ifndef RMAPBENCH_BISECT_H
#define RMAPBENCH_BISECT_H

#include <stddef.h>

#include "db.h"

struct bisect_opts {
	const char *tree, *good, *bad; /* a git tree and two of its revisions */
	/* or a series (its directory) on a recipe (default minimal): good
	 * and bad are step numbers, 0 and the last when NULL */
	const char *series, *recipe;
	const char *config, *metric;   /* metric NULL: any regression */
	/* a kernel error instead of a metric: a signature, or "any" for any
	 * error GOOD does not show: a signature, or a failed check of the
	 * oopshunt workload (metric must be NULL) */
	const char *error;
	const char *const *sets;
	int nsets;
	const char *junit, *markdown;  /* the confirmation's verdicts, or NULL */
};

/* 0 a first bad commit named, 1 an error, 2 nothing to bisect, 130
 * interrupted. */
int bisect_run(const struct bisect_opts *o, struct db *db);
#endif
