/* A bisect's steps: a commit's run (recorded before, else built and run),
 * two runs judged, the next commit to try, and the figure of the steps.
 * bisect.c's alone. */
#ifndef RMAPBENCH_BISECT_STEP_H
#define RMAPBENCH_BISECT_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "db.h"
#include "git_range.h"
#include "verdict.h"

enum step_state { S_UNKNOWN, S_GOOD, S_BAD, S_SKIP };

struct bisect {
	const char *tree, *metric; /* bisect_opts' (bisect.h) */
	bool error;                /* --error: metric a signature row, or NULL any */
	char error_row[256];       /* "kernel_error: SIGNATURE" */
	int tries;                 /* runs a step needs clean to be good (1, or from BAD's rate) */
	struct config cfg;         /* loaded once: every step runs a copy */
	struct db *db;
	struct git_range r;
	int64_t good_run, *runs; /* runs[i]: commit i's step run, 0 none */
	enum step_state *state;
};

/* The run of commit hash with this tag: the one recorded, else a new one
 * (built, then run). 0 with *run; 1 the commit is to be skipped (said);
 * 130 interrupted; 2 the config is bad. */
int step_run(struct bisect *b, const char *hash, const char *tag, int64_t *run);
/* B's run against A's on the metric (any regression when metric is
 * NULL): 1 regressed, 0 not, -1 an error; c filled and kept for output. */
int regressed(struct bisect *b, int64_t a, int64_t run, const char *la, const char *lb, struct comparison *c,
	      struct side *sa, struct side *sb);
/* Commit hash judged against GOOD's run: run up to b->tries times (tags
 * TAG, TAG-2, ...), bad at the first run that regressed, good only when
 * every one was clean. 1 bad, 0 good, with *run the last; else -1 skip,
 * or -(exit status) when it stopped. */
int step_judge(struct bisect *b, const char *hash, const char *tag, const char *label, int64_t *run);
/* With --error, the runs a step needs clean before it is called good, from
 * how often BAD's run showed the error (ktest's BISECT_TRIES): the fewest
 * n with (1 - rate)^n below 5%, in runs of the config's points. */
void error_tries(struct bisect *b, const struct comparison *bad_vs_good, int64_t bad_run);
/* The next commit to try between lo and hi (exclusive), nearest the
 * middle and not skipped; -1 when none is left. */
int next_step(const struct bisect *b, int lo, int hi);
/* The metric along the steps tried, GOOD first, in the tree's order, at
 * the config's largest users; the first bad commit marked. */
void steps_figure(struct bisect *b, int first);

#endif
