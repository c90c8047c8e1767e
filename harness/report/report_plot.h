/* What every figure of harness/report shares (report_plot.c); below
 * report.c, report_runs.c, report_panel.c and report_paper.c. */
#ifndef RMAPBENCH_REPORT_PLOT_H
#define RMAPBENCH_REPORT_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "query.h"

struct tsv {
	FILE *f;
	char prev[64];
	char *names;
	size_t nlen;
	long *umin, *umax;
	int rows, block;
};

/* A name as one word of gnuplot's word(). */
void append_word(char *names, size_t nlen, const char *name);
/* A row of users, mean, min, max, n; a new block for each workload. */
int tsv_row(void *arg, const struct db_users_stat *p);
/* PATH: a block per run, the metric's mean per users; how many rows. */
int write_compare(struct db *db, const int64_t *runs, int n, const char *metric, const char *path, long *umin,
		  long *umax);
/* dir as gnuplot is given it: absolute, a pinned folder as it is. */
char *abs_dir(const char *dir, char *adir);
/* plots/SCRIPT.gp through figure.gp, every value an argument; data and
 * out absolute. 0, or -1 with gnuplot's last line warned. */
int gnuplot(const char *plotdir, const char *script, const char *data, const char *out, const char *fmt,
	    const char *names, const char *title, int logx, const char *unavail);

/* A figure's start: plotdir (PATH_MAX) the plots' folder, prefix DIR/NAME
 * with DIR absolute; -1 when gnuplot or its scripts are missing. */
int plot_begin(const char *dir, const char *name, char *plotdir, char *prefix, size_t len);
/* The figure as PNG and as SVG. */
int gnuplot_both(const char *plotdir, const char *script, const char *data, const char *out, const char *names,
		 const char *title, int logx, const char *marks);

#endif
