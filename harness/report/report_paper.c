/* ./run.sh paper's figure (plots/paper.gp): the designs' crossings and
 * the point nearest each over its own time. */
#include "report.h"
#include "report_plot.h"
#include "paths.h"
#include "timeline_attr.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* PATH: a block per design, the point nearest its crossing window by
 * window (the middle of each, seconds; system and iowait %); a design
 * without one, or whose attribute does not parse, gets a row of NaN, as
 * gnuplot wants a point in every block it is told of. */
static int write_timelines(struct db *db, const int64_t *runs, const char *const *workloads, const long *nearest, int n,
			   const char *path)
{
	FILE *f = rb_create_stream(path);
	if (!f)
		return -1;
	fprintf(f, "# seconds sys%% iowait%%, a block per design: its point nearest the crossing\n");
	for (int i = 0; i < n; i++) {
		char text[512], err[200];
		struct timeline_attr t = { .n = 0 };
		int got = nearest[i] > 0 ? db_point_attr(db, runs[i], workloads[i], nearest[i], "timeline", text, sizeof(text)) : 0;
		if (got > 0 && timeline_attr_parse(text, &t, err, sizeof(err)) < 0) {
			rb_warn("run %lld, %ld users: %s", (long long)runs[i], nearest[i], err);
			t.n = 0;
		}
		fprintf(f, "%s# users %ld\n", i ? "\n\n" : "", nearest[i]);
		for (int w = 0; w < t.n; w++)
			fprintf(f, "%.3f %.1f %.1f\n", (w + 0.5) * t.step_s, t.sys_pct[w], t.iowait_pct[w]);
		if (!t.n)
			fputs("0 NaN NaN\n", f);
	}
	return fclose(f) == 0 ? 0 : -1;
}

int report_paper(struct db *db, const int64_t *runs, const char *const *labels, const double *crossed,
		 const char *const *workloads, const long *nearest, int n, const char *title, const char *dir, char *path,
		 size_t plen)
{
	static const char *const panels[] = { "jobs_per_min_per_user", "sys_pct", "iowait_pct" };
	char plotdir[PATH_MAX], prefix[PATH_MAX + 16], data[PATH_MAX + 80];
	path[0] = 0;
	if (plot_begin(dir, "paper", plotdir, prefix, sizeof(prefix)) < 0)
		return -1;
	for (size_t p = 0; p < ARRAY_SIZE(panels); p++) {
		long umin = 0, umax = 0;
		snprintf(data, sizeof(data), "%s-%s.tsv", prefix, panels[p]);
		if (write_compare(db, runs, n, panels[p], data, &umin, &umax) <= 0)
			return -1;
	}
	snprintf(data, sizeof(data), "%s-timeline.tsv", prefix);
	if (write_timelines(db, runs, workloads, nearest, n, data) < 0)
		return -1;
	/* the marks: each crossover, then each nearest point's users */
	char names[300] = "", marks[256] = "";
	for (int i = 0; i < n; i++) {
		append_word(names, sizeof(names), labels[i]);
		snprintf(marks + strlen(marks), sizeof(marks) - strlen(marks), "%s%.6g", i ? " " : "", crossed[i]);
	}
	for (int i = 0; i < n; i++)
		snprintf(marks + strlen(marks), sizeof(marks) - strlen(marks), " %ld", nearest[i]);
	if (gnuplot_both(plotdir, "paper", prefix, prefix, names, title, 0, marks) < 0)
		return -1;
	snprintf(path, plen, "%s.png", prefix);
	return 0;
}
