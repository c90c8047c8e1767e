/* A suite's nights drawn and written out (compare/trend.h holds them):
 * the trend page, small multiples of gnuplot SVGs with hover, a table of
 * change points and one of nights; and the same as JSON for dashboards.
 * Every string from the database is escaped for where it goes. */
#ifndef RMAPBENCH_TREND_PAGE_H
#define RMAPBENCH_TREND_PAGE_H

#include <stddef.h>
#include <stdio.h>

#include "trend.h"

/* DIR/trend.html and its figures, for the nt suites of t; its path into
 * path. -1 when the page could not be written (a figure that could not
 * be drawn is said on the page). */
int trend_page(const struct trend *t, int nt, const char *dir, const char *title, char *path, size_t plen);
/* The suites' nights, series and change points as one JSON object. */
void trend_json(FILE *f, const struct trend *t, int nt, int check_nights);

#endif
