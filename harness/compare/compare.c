#include "compare.h"
#include "query.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_REPS 1000

static const char *const headline[] = { "rmap_vmas_per_walk",
					"rmap_walks",
					"rmap_vmas_visited",
					"sys_s",
					"sys_pct",
					"wall_s",
					"jobs_per_min",
					"lock_contentions",
					"lockstat_anon_vma_contentions",
					"lockstat_anon_vma_wait_ns",
					"vm_pswpout",
					"vm_pgscan" };

struct compare_state {
	struct db *db;
	const int64_t *runs;
	int tested, differ, failed;
};

/* One metric of one (workload, users) on both runs: a line of the table. */
static void compare_row(struct compare_state *c, const struct db_group *g, const char *metric)
{
	static double a[MAX_REPS], b[MAX_REPS];
	int na = db_point_values(c->db, c->runs[0], g->workload, g->users, metric, a, MAX_REPS);
	int nb = db_point_values(c->db, c->runs[1], g->workload, g->users, metric, b, MAX_REPS);
	if (na < 0 || nb < 0) {
		c->failed = 1;
		return;
	}
	if (!na && !nb)
		return;
	double ma = stats_mean(a, na), mb = stats_mean(b, nb);
	char av[32] = "unavailable", bv[32] = "unavailable", change[16] = "-", verdict[48] = "-";
	if (na)
		snprintf(av, sizeof(av), "%.4g", ma);
	if (nb)
		snprintf(bv, sizeof(bv), "%.4g", mb);
	if (na && nb && ma != 0)
		snprintf(change, sizeof(change), "%+.1f%%", 100.0 * (mb - ma) / fabs(ma));
	struct welch w;
	if (stats_welch(a, na, b, nb, &w) == 0) {
		int d = w.no_variance ? ma != mb : w.p < 0.05;
		if (w.no_variance)
			snprintf(verdict, sizeof(verdict), ma == mb ? "same" : "differ (no variance)");
		else
			snprintf(verdict, sizeof(verdict), "%s (t=%.2f, df=%.0f)", d ? "differ" : "no difference", w.t,
				 w.df);
		c->tested++;
		c->differ += d;
	} else if (na && nb) {
		snprintf(verdict, sizeof(verdict), "n=%d/%d: too few to test", na, nb);
	}
	printf("%-10s %6ld %-30s %14s %14s %9s  %s\n", g->workload, g->users, metric, av, bv, change, verdict);
}

static int compare_group(void *arg, const struct db_group *g)
{
	for (size_t m = 0; m < ARRAY_SIZE(headline); m++)
		compare_row(arg, g, headline[m]);
	return 0;
}

int compare_runs_print(struct db *db, const int64_t runs[2], const char *labels[2])
{
	struct compare_state c = { db, runs, 0, 0, 0 };
	printf("\n%-10s %6s %-30s %14s %14s %9s  %s\n", "workload", "users", "metric", labels[0], labels[1], "change",
	       "Welch 95%");
	if (db_groups_each(db, runs, 2, compare_group, &c) < 0 || c.failed) {
		rb_error("%s: %s", db->path, db_errmsg(db));
		return -1;
	}
	if (c.tested)
		printf("\n%d of %d tested (workload, users, metric) rows differ at 95%% (Welch)\n", c.differ, c.tested);
	else
		printf("\nno row has two or more repetitions on both kernels: nothing tested (--set repetitions=3)\n");
	return 0;
}
