/* The running kernel's cost of one VMA visited by an rmap walk (see
 * walk_calib.c), and the file that keeps it for the engine target:
 * results/walk-calibration.tsv beside the database. */
#ifndef RMAPBENCH_WALK_CALIB_H
#define RMAPBENCH_WALK_CALIB_H

#include <stdbool.h>
#include <stddef.h>

#define WALK_CALIB_MAX_POINTS 1024
#define WALK_CALIB_MAX_FAMILIES 8
#define WALK_CALIB_MAX_SLICES 16
#define WALK_CALIB_FILE "walk-calibration.tsv" /* results_path's name for it */
/* Each N's cost is this quantile of its samples: whatever else the machine
 * does can only add to a walk's time, never take from it, so the low end
 * of many short samples is the walk's own cost. */
#define WALK_CALIB_QUANTILE 0.1
/* Rounds whose quantiles of one N differ by more than this share of the
 * lowest: the measurement was the machine's noise, refused. Each round
 * forks a family of its own, and where its memory lands moves its walks:
 * on a quiet machine here the rounds of 16,000 VMAs differed by 8 to 61%
 * (7 calibrations), with stress-ng --cpu 2 beside them by 54%. */
#define WALK_CALIB_SPREAD_MAX 0.35

struct walk_calib_plan {
	long families[WALK_CALIB_MAX_FAMILIES]; /* N: the processes whose VMAs the walk visits first */
	int n_families;
	long pages;           /* paged out per round, for each N */
	int slices;           /* ... in this many samples, the N taken in turn */
	int repetitions;
	long swap_mib;
	double timeout_s;     /* a round */
	double max_spread;    /* refused past it (WALK_CALIB_SPREAD_MAX) */
};

struct walk_point {
	long n;
	double ns_per_page;
	int round; /* of the measurement (from 0); 0 on the curve */
};

struct walk_calib {
	char release[65];     /* the kernel it was measured on */
	double vma_ns, fixed_ns, r2;
	struct walk_point pts[WALK_CALIB_MAX_POINTS];
	int npts;
	/* the walk's cost against N, the page-out's own part (N = 0) taken
	 * off: each N's WALK_CALIB_QUANTILE, never falling as N grows. The
	 * engine charges a walk of N VMAs this (sim_walk_curve). */
	struct walk_point curve[WALK_CALIB_MAX_POINTS];
	int ncurve;
	/* the others mapped another page (walk_calib_map_other_page); a file
	 * without the line was measured with their ptes dropped, which since
	 * 6.14 frees their pte tables: walks shorter than 2.6.33's */
	bool others_mapped;
};

#include <stdio.h>

/* 0 to 16,000 processes (past a few thousand the page tables leave the
 * cache and a VMA costs more; the 2010 walks were of about 10,000), 64
 * pages in 8 samples of 8, 3 rounds: a round's time is its forks' (16,000
 * take about 30 s here, the walks 5), and one family serves every N. */
void walk_calib_default_plan(struct walk_calib_plan *plan);
/* Measures (needs root: a swap file); dir holds the swap file meanwhile. */
int walk_calibrate(const char *dir, const struct walk_calib_plan *plan, struct walk_calib *out, char *err,
		   size_t errlen);

/* walk_calibrate beside the database, recorded as a run and kept in its
 * WALK_CALIB_FILE; progress and the result to out; -1 said on stderr. */
int walk_calib_keep(const char *db_path, const struct walk_calib_plan *plan, struct walk_calib *c, FILE *out);
/* The calibration kept beside the database (calibrate-walk's), with its
 * path: 0, or -1 with why (none, or one too old to use). */
int walk_calib_kept(const char *db_path, struct walk_calib *c, char *path, size_t plen, char *why, size_t wlen);

/* What each process of the family but the last does to [r, r + len): the
 * family's pages dropped, the zero page read in their place, so that a
 * walk visiting it reaches a present pte of another pfn, as 2.6.33's did
 * in every other process of an AIM7 family. 0, or -1 when a pte is left
 * empty (a kernel that forbids the zero page). */
int walk_calib_map_other_page(char *r, size_t len);

/* From the points: the curve above. */
void walk_calib_make_curve(struct walk_calib *c);
/* 0 when the engine can charge walks by c: a positive slope the file's
 * loader takes and a curve with a cost above nothing; else -1 and why
 * (rounds the machine's noise outweighed). calibrate-walk keeps no other. */
int walk_calib_check(const struct walk_calib *c, char *why, size_t len);
/* The widest (highest - lowest) / lowest among one N's rounds' own
 * quantiles, and its N: how far what is kept moves from one round to the
 * next. N = 0 left out (the page-out's microseconds, which the curve
 * takes off every walk: their spread is not the walks'). */
double walk_calib_spread(const struct walk_calib *c, long *at);
/* Each N's quantile into v[] (in the order of the curve); how many. */
int walk_calib_quantiles(const struct walk_calib *c, long *n, double *v, int max);
/* The curve as sim_walk_curve's text (N:NS,...); -1 when it does not fit. */
int walk_calib_curve_text(const struct walk_calib *c, char *buf, size_t len);

/* The file: comment lines, then "vma_ns fixed_ns r2 points release" and
 * "curve N:NS,...", tab-separated. Save creates it without following a
 * link. A file without the curve line (from before it) loads with
 * ncurve 0. */
int walk_calib_save(const char *path, const struct walk_calib *c, const char *revision, const char *measured,
		    char *err, size_t errlen);
/* 0 with c's vma_ns, fixed_ns, r2, release and curve; -1 with "PATH:LINE: why". */
int walk_calib_load(const char *path, struct walk_calib *c, char *err, size_t errlen);
/* The same parse over text in memory (the fuzz target's entry). */
int walk_calib_parse(const char *text, const char *origin, struct walk_calib *c, char *err, size_t errlen);

#endif
