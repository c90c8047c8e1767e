/* One metric against users for n runs, a line each (compare-kernels' and
 * `compare`'s per-metric figures); at a single users count, the runs side
 * by side (plots/sidebyside.gp). */
#include "report.h"
#include "report_plot.h"
#include "paths.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int report_runs(struct db *db, const int64_t *runs, const char *const *labels, int n, const char *metric,
		const char *title, const char *dir, const char *prefix, char *path, size_t plen)
{
	char plotdir[PATH_MAX], data[PATH_MAX], out[PATH_MAX], names[300] = "";
	long umin = 0, umax = 0;
	path[0] = 0;
	if (rb_source_dir("RMAPBENCH_PLOTS", "plots", "common.gp", plotdir, sizeof(plotdir)) < 0 || !rb_have_program("gnuplot"))
		return -1;
	char adir[PATH_MAX];
	if (!abs_dir(dir, adir))
		return -1;
	snprintf(data, sizeof(data), "%s/%s-%s.tsv", adir, prefix, metric);
	snprintf(out, sizeof(out), "%s/%s-%s", adir, prefix, metric);
	int rows = write_compare(db, runs, n, metric, data, &umin, &umax);
	if (rows <= 0)
		return -1;
	for (int i = 0; i < n; i++)
		append_word(names, sizeof(names), labels[i]);
	char script[80], users[32] = "";
	snprintf(script, sizeof(script), "%s", metric);
	char probe[PATH_MAX + 100];
	snprintf(probe, sizeof(probe), "%s/%s.gp", plotdir, metric);
	if (access(probe, R_OK) < 0)
		snprintf(script, sizeof(script), "generic"); /* the title says which metric */
	if (umin == umax) { /* one users count: the runs side by side, no users axis */
		snprintf(script, sizeof(script), "sidebyside");
		snprintf(users, sizeof(users), "%ld", umin);
	}
	int logx = umin > 0 && umax / umin >= 20;
	if (gnuplot_both(plotdir, script, data, out, names, title, logx, users) < 0)
		return -1;
	snprintf(path, plen, "%s.png", out);
	return 0;
}

int report_compare(struct db *db, const int64_t runs[2], const char *labels[2], const char *metric, const char *dir,
		   char *path, size_t plen)
{
	char title[300];
	snprintf(title, sizeof(title), "%s: %s (run %lld) vs %s (run %lld)", metric, labels[0], (long long)runs[0],
		 labels[1], (long long)runs[1]);
	return report_runs(db, runs, labels, 2, metric, title, dir, "compare", path, plen);
}
