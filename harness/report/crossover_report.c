/* Two runs' AIM7 crossovers: each side's per workload, the ratio where
 * both crossed, and the six-panel figure (report_crossover_panel) with
 * the first common workload's crossovers marked, in the caller's folder.
 * compare-kernels and `compare --crossover` print it. */
#include "crossover_report.h"
#include "crossover.h"
#include "query.h"
#include "report.h"
#include "util.h"
#include "stats.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MAX_REPS 64

/* A metric's values at one point of a run, at most MAX_REPS of them. */
static int values_at(struct db *db, int64_t run, const char *workload, long users, const char *metric,
		     double v[MAX_REPS])
{
	int n = db_point_values(db, run, workload, users, metric, v, MAX_REPS);
	return n > MAX_REPS ? MAX_REPS : n;
}

/* jobs/min at A's measured point nearest its crossing: is B's difference
 * there more than noise? Welch's test, since it can speak at two
 * repetitions a side (Mann-Whitney cannot go below p = 0.33 there). */
static void at_a_crossing(struct db *db, const int64_t runs[2], const char *labels[2], const struct crossover *x)
{
	double v[2][MAX_REPS];
	int n[2];
	long users = crossover_nearest_point(x);
	for (int k = 0; k < 2; k++)
		n[k] = values_at(db, runs[k], x->workload, users, "jobs_per_min", v[k]);
	if (n[0] < 1 || n[1] < 1)
		return;
	double a = stats_mean(v[0], n[0]), b = stats_mean(v[1], n[1]);
	struct welch w;
	char test[96] = "a test needs two repetitions a side";
	if (stats_welch(v[0], n[0], v[1], n[1], &w) == 0 && !w.no_variance)
		snprintf(test, sizeof(test), "Welch t = %.2f, df %.1f, p = %.3g%s", w.t, w.df, w.p,
			 w.p < 0.05 ? ": significant" : ": not significant at 0.05");
	printf("jobs/min at %s's crossover point (%s, %ld users): %s %.0f, %s %.0f (%+.0f%%, n = %d and %d); %s\n",
	       labels[0], x->workload, users, labels[0], a, labels[1], b, a > 0 ? (b - a) / a * 100 : 0, n[0],
	       n[1], test);
}

/* B's measured point nearest its crossing: the cause, B against A there. */
static void at_b_crossing(struct db *db, const int64_t runs[2], const char *labels[2], const struct crossover *y)
{
	static const char *const causes[] = { "rmap_vmas_per_walk", "lockstat_anon_vma_wait_ns",
					      "lockstat_anon_vma_contentions" };
	long users = crossover_nearest_point(y);
	for (size_t m = 0; m < sizeof(causes) / sizeof(causes[0]); m++) {
		double v[2][MAX_REPS];
		int n[2];
		for (int k = 0; k < 2; k++)
			n[k] = values_at(db, runs[k], y->workload, users, causes[m], v[k]);
		if (n[0] < 1 || n[1] < 1)
			continue;
		double a = stats_mean(v[0], n[0]), b = stats_mean(v[1], n[1]);
		char ratio[32] = "no ratio: A's is 0";
		if (a > 0)
			snprintf(ratio, sizeof(ratio), "%s/%s = %.1fx", labels[1], labels[0], b / a);
		printf("at %s's crossover point (%s, %ld users): %s %s %.4g, %s %.4g: %s\n", labels[1], y->workload,
		       users, causes[m], labels[0], a, labels[1], b, ratio);
	}
}

void crossover_report(struct db *db, const char *dir, const int64_t runs[2], const char *labels[2])
{
	struct crossover c[2][16];
	int nc[2];
	for (int k = 0; k < 2; k++) {
		nc[k] = crossover_find(db, runs[k], c[k], 16);
		for (int i = 0; i < nc[k]; i++) {
			char line[256];
			crossover_describe(&c[k][i], line, sizeof(line));
			printf("AIM7 crossover on %s: %s\n", labels[k], line);
		}
	}
	/* each workload both ran: where each crossed and the ratio; the
	 * first one's crossovers are marked on the figure */
	double marked[2] = { 0, 0 };
	bool have_marks = false;
	for (int i = 0; i < nc[0]; i++)
		for (int j = 0; j < nc[1]; j++) {
			const struct crossover *x = &c[0][i], *y = &c[1][j];
			if (strcmp(x->workload, y->workload))
				continue;
			if (!have_marks) { /* only a crossing measured between two points is marked */
				marked[0] = x->reached && !x->from_first ? x->at_users : 0;
				marked[1] = y->reached && !y->from_first ? y->at_users : 0;
				have_marks = true;
			}
			if (x->reached && y->reached && !x->from_first && !y->from_first) {
				printf("crossover ratio %s: %s at %.0f users, %s at %.0f: %s/%s = %.2f\n", x->workload,
				       labels[0], x->at_users, labels[1], y->at_users, labels[1], labels[0],
				       y->at_users / x->at_users);
				at_a_crossing(db, runs, labels, x);
				at_b_crossing(db, runs, labels, y);
			} else
				printf("crossover ratio %s: not measured (%s); widen the users sweep\n", x->workload,
				       !x->reached || !y->reached ? "a side never crossed the line"
								  : "a side was below the line from its first point");
		}
	char panel[PATH_MAX + 40], shown[PATH_MAX + 80];
	if (dir && report_crossover_panel(db, runs, labels, marked, dir, panel, sizeof(panel)) == 0)
		printf("figure: %s\n", rb_path_shown(panel, shown, sizeof(shown)));
}
