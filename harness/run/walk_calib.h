/* The running kernel's cost of one VMA visited by an rmap walk (see
 * walk_calib.c), and the file that keeps it for the engine target:
 * results/walk-calibration.tsv beside the database. */
#ifndef RMAPBENCH_WALK_CALIB_H
#define RMAPBENCH_WALK_CALIB_H

#include <stddef.h>

#define WALK_CALIB_MAX_POINTS 64
#define WALK_CALIB_FILE "walk-calibration.tsv" /* results_path's name for it */
#define WALK_CALIB_R2_QUIET 0.9 /* a fit looser than this says the machine was busy */

struct walk_calib_plan {
	long families[8];     /* N: the processes whose VMAs the walk visits first */
	int n_families;
	long pages;           /* paged out per round */
	int repetitions;
	long swap_mib;
	double timeout_s;     /* a round */
};

struct walk_point {
	long n;
	double ns_per_page;
};

struct walk_calib {
	char release[65];     /* the kernel it was measured on */
	double vma_ns, fixed_ns, r2;
	struct walk_point pts[WALK_CALIB_MAX_POINTS];
	int npts;
};

#include <stdio.h>

/* 0, 1000, 2000 and 4000 processes, 256 pages, 3 repetitions. */
void walk_calib_default_plan(struct walk_calib_plan *plan);
/* Measures (needs root: a swap file); dir holds the swap file meanwhile. */
int walk_calibrate(const char *dir, const struct walk_calib_plan *plan, struct walk_calib *out, char *err,
		   size_t errlen);

/* walk_calibrate beside the database, recorded as a run and kept in its
 * WALK_CALIB_FILE; progress and the result to out; -1 said on stderr. */
int walk_calib_keep(const char *db_path, const struct walk_calib_plan *plan, struct walk_calib *c, FILE *out);
/* The kept calibration, measured first when there is none. */
int walk_calib_ensure(const char *db_path, struct walk_calib *c, char *path, size_t plen);

/* The file: comment lines, then "vma_ns fixed_ns r2 points release",
 * tab-separated. Save creates it without following a link. */
int walk_calib_save(const char *path, const struct walk_calib *c, const char *revision, char *err, size_t errlen);
/* 0 with c's vma_ns, fixed_ns, r2 and release; -1 with "PATH:LINE: why". */
int walk_calib_load(const char *path, struct walk_calib *c, char *err, size_t errlen);
/* The same parse over text in memory (the fuzz target's entry). */
int walk_calib_parse(const char *text, const char *origin, struct walk_calib *c, char *err, size_t errlen);

#endif
