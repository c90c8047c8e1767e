/* A bisect's figure (plots/bisect.gp): its metric at GOOD and at each
 * commit tried, in the tree's order, the first bad one marked. */
#include "report.h"
#include "report_plot.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

int report_bisect(const struct bisect_point *p, int n, int first_bad, const char *metric, const char *title,
		  const char *dir, char *path, size_t plen)
{
	char plotdir[PATH_MAX], prefix[PATH_MAX + 16], data[PATH_MAX + 80], names[SIDE_NAMES_MAX] = "", mark[16] = "";
	path[0] = 0;
	if (n <= 0 || plot_begin(dir, "bisect", plotdir, prefix, sizeof(prefix)) < 0)
		return -1;
	snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix), "-%s", metric);
	snprintf(data, sizeof(data), "%s.tsv", prefix);
	FILE *f = rb_create_stream(data);
	if (!f)
		return -1;
	fprintf(f, "# place mean min max (%s): GOOD, then each step tried\n", metric);
	for (int i = 0; i < n; i++) {
		append_word(names, sizeof(names), p[i].commit);
		fprintf(f, "%d\t%.6g\t%.6g\t%.6g\n", i, p[i].mean, p[i].min, p[i].max);
	}
	if (fclose(f) != 0)
		return -1;
	if (first_bad >= 0)
		snprintf(mark, sizeof(mark), "%d", first_bad);
	if (gnuplot_both(plotdir, "bisect", data, prefix, names, title, 0, mark) < 0)
		return -1;
	snprintf(path, plen, "%s.png", prefix);
	return 0;
}
