#ifndef RMAPBENCH_REPORT_H
#define RMAPBENCH_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

/* Writes the figures and DIR/report.html; its path into PATH. -1 when a
 * figure could not be made (the report is still written, saying so). */
int report_generate(struct db *db, int64_t run, const char *dir, char *path, size_t plen);

struct comparison;
struct side;
/* The same with verdicts against baselines at the top (the nightly's
 * report): n comparisons, each of sides a[i] and b[i]. */
int report_generate_verdicts(struct db *db, int64_t run, const char *dir, char *path, size_t plen,
			     const struct comparison *c, const struct side *a, const struct side *b, int n,
			     const char *trend_href);

/* A figure of one metric against users for two runs (a line each,
 * titled by labels); path gets the PNG. -1 when nothing to plot. */
int report_compare(struct db *db, const int64_t runs[2], const char *labels[2], const char *metric, const char *dir,
		   char *path, size_t plen);

/* The same for n runs, a line each: DIR/PREFIX-METRIC.{png,svg}. */
/* compare-kernels' crossover figure (plots/crossover_panel.gp): six panels
 * of two runs against users, each run's crossover (users; 0: not reached)
 * marked on the first; DIR/crossover.png and .svg, its path into path. */
int report_crossover_panel(struct db *db, const int64_t runs[2], const char *labels[2], const double crossed[2],
			   const char *dir, char *path, size_t plen);
/* ./run.sh paper's figure (plots/paper.gp): n designs' jobs/min per user,
 * each crossover (users; 0: none) marked beside 2010's 9.7k and 29.7k,
 * their system and iowait time, and the measured point nearest each
 * crossing (`nearest` users of `workloads`; 0: none) over its own time,
 * from its timeline attribute; DIR/paper.{png,svg}. */
int report_paper(struct db *db, const int64_t *runs, const char *const *labels, const double *crossed,
		 const char *const *workloads, const long *nearest, int n,
		 const char *title, const char *dir, char *path, size_t plen);
int report_runs(struct db *db, const int64_t *runs, const char *const *labels, int n, const char *metric,
		const char *title, const char *dir, const char *prefix, char *path, size_t plen);

/* A bisect's figure (plots/bisect.gp): a metric's mean, min and max at
 * GOOD and at each commit tried (p, in the tree's order), the first bad
 * one (its index; -1 none) marked; DIR/bisect-METRIC.{png,svg}. */
#define SIDE_NAMES_MAX 1024
struct bisect_point {
	char commit[16]; /* its short hash */
	double mean, min, max;
};
int report_bisect(const struct bisect_point *p, int n, int first_bad, const char *metric, const char *title,
		  const char *dir, char *path, size_t plen);

/* A replayed trace's designs side by side (report_replay.c). */
struct replay_bar {
	char design[16], release[24];
	double walk, referenced; /* VMAs per walk at the peak */
};
int report_replay(const struct replay_bar *b, int n, const char *title, const char *dir, char *path, size_t plen);

#endif
