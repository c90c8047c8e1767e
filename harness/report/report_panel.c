/* compare-kernels' six-panel crossover figure (plots/crossover_panel.gp). */
#include "report.h"
#include "report_plot.h"
#include "paths.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int report_crossover_panel(struct db *db, const int64_t runs[2], const char *labels[2], const double crossed[2],
			   const char *dir, char *path, size_t plen)
{
	/* the panels' order is plots/crossover_panel.gp's */
	static const char *const panels[] = { "jobs_per_min_per_user",	      "jobs_per_min",
					      "sys_pct",		      "rmap_vmas_per_walk",
					      "lockstat_anon_vma_contentions", "lockstat_anon_vma_wait_ns" };
	char plotdir[PATH_MAX], prefix[PATH_MAX + 16], data[PATH_MAX + 80];
	path[0] = 0;
	if (plot_begin(dir, "crossover", plotdir, prefix, sizeof(prefix)) < 0)
		return -1;
	int mask = 0, logx = 0;
	long single = 0; /* one users count in the jobs/min panel: the sides drawn side by side */
	for (size_t p = 0; p < ARRAY_SIZE(panels); p++) {
		long umin = 0, umax = 0;
		snprintf(data, sizeof(data), "%s-%s.tsv", prefix, panels[p]);
		int rows = write_compare(db, runs, 2, panels[p], data, &umin, &umax);
		if (rows > 0)
			mask |= 1 << p;
		if (p == 0) {
			logx = umin > 0 && umax / umin >= 20;
			single = rows > 0 && umin == umax ? umin : 0;
		}
	}
	if (!(mask & 1)) /* no jobs/min per user: nothing to cross */
		return -1;
	char names[300] = "", marks[96], title[300];
	for (int i = 0; i < 2; i++)
		append_word(names, sizeof(names), labels[i]);
	snprintf(marks, sizeof(marks), "%.6g %.6g %d %ld", crossed[0], crossed[1], mask, single);
	snprintf(title, sizeof(title), "%s (run %lld) against %s (run %lld)", labels[0], (long long)runs[0], labels[1],
		 (long long)runs[1]);
	if (gnuplot_both(plotdir, "crossover_panel", prefix, prefix, names, title, logx, marks) < 0)
		return -1;
	snprintf(path, plen, "%s.png", prefix);
	return 0;
}
