/* Where a comparison's verdicts are read after the terminal: --junit and
 * --markdown, and a run's report remade with them on top. One home for
 * compare, compare-kernels and the nightly. */
#ifndef RMAPBENCH_VERDICT_FILES_H
#define RMAPBENCH_VERDICT_FILES_H

#include <stdint.h>

#include "db.h"
#include "verdict.h"

/* The n comparisons c (sides a, b) into junit and markdown when not
 * NULL, who naming the command in an error; with run > 0, that run's
 * report in db remade with them, linking the trend page trend_href (a
 * path from the report's folder; NULL none), and its path said. 0, or 2
 * when a file could not be written (said). */
int verdict_files(const char *who, const char *junit, const char *markdown, struct db *db, int64_t run, int n,
		  const struct comparison *c, const struct side *a, const struct side *b, const char *trend_href);

#endif
