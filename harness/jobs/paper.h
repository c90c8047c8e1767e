/* `paper` as a job: the 2010 crossover on the engine target. The profile
 * (configs/paper-2010.conf) runs once per design, each a run of its own
 * whose users sweep stops after its crossing and bisects around it; then
 * each design's crossover (AIM7's rule, harness/compare/crossover.c) with
 * its system, iowait and lock-wait shares at the measured point nearest
 * it (the point's averages and its median second's), and the figure
 * (plots/paper.gp). Printed as a table or JSON by paper_print.c. */
#ifndef RMAPBENCH_PAPER_H
#define RMAPBENCH_PAPER_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "crossover.h"
#include "db.h"

#define PAPER_NDESIGNS 3
#define PAPER_NSHARES 5
extern const char *const paper_designs[PAPER_NDESIGNS];
/* the point's averages, then the median second's (a collapse and its IO
 * tail averaged in one point hide both) */
extern const char *const paper_shares[PAPER_NSHARES];

/* With profile = 1: where the simulated time went at that point, from
 * the simulator's profile rows (children shares of all task time): the
 * spin for the anon_vma lock, the rmap walks under it, user CPU, the
 * disk's wait and sleeping for the lock; NaN when not profiled. */
#define PAPER_NSPLIT 5
enum { SPLIT_SPIN, SPLIT_WALK, SPLIT_USER, SPLIT_IO, SPLIT_SLEEP };

struct paper_row {
	int64_t run;
	struct crossover x;
	int found;
	long users;                     /* the measured point nearest the crossing */
	double share[PAPER_NSHARES];    /* paper_shares there; NaN when not measured */
	double split[PAPER_NSPLIT];     /* percent of all task time */
};

struct paper_opts {
	const char *config;
	const char **sets; /* room for two more: the calibration and the design */
	int nsets;
	const char *designs[PAPER_NDESIGNS];
	int nd;
	bool calibrate;    /* this host's walk calibration first, then the reference's */
};

struct paper_result {
	struct paper_row rows[PAPER_NDESIGNS], ref[PAPER_NDESIGNS]; /* ref: --calibrate's reference runs */
	char reference[256];                                         /* the profile's walk_calibration */
	char figure[PATH_MAX + 16];                                  /* empty: none was made */
};

/* 0, or the exit status having said why (2 a config or a noisy
 * calibration, 1 a run, 130 interrupted). */
int paper_run(const struct paper_opts *o, struct db *db, struct paper_result *res);

/* paper_print.c */
void paper_print_table(const struct paper_row *rows, const char *const *designs, int nd);
void paper_print_json(const struct paper_row *rows, const char *const *designs, int nd);
/* profile = 1: each design's time at its crossing point, split */
void paper_print_split(const struct paper_row *rows, const char *const *designs, int nd);
/* --calibrate: this host's crossings beside the reference's */
void paper_print_shift(const struct paper_row *host, const struct paper_row *ref, const char *const *designs, int nd,
		       const char *reference);
double paper_crossed_at(const struct paper_row *r);

#endif
