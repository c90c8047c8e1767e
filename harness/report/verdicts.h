/* Verdicts for people and for CI: the table on a terminal, JUnit XML (a
 * test case per compared row; a regression is a failure naming the
 * metric, both medians, the change, p and the effect) and a Markdown
 * summary for job summaries and review comments. */
#ifndef RMAPBENCH_VERDICTS_H
#define RMAPBENCH_VERDICTS_H

#include "verdict.h"

void verdicts_print(const struct comparison *c, const struct side *a, const struct side *b);
/* A row's change, B against A, as every output prints it: "-" when A is
 * 0 or a side has none. */
void change_text(char *buf, size_t len, const struct verdict_row *r);
/* One screen: the regressions, then the improvements, then the counts. */
void verdicts_print_brief(const struct comparison *c, const struct side *a, const struct side *b);
/* 0, or -1 with errno (the file could not be written). */
int verdicts_junit(const char *path, const struct comparison *c, const struct side *a, const struct side *b);
int verdicts_markdown(const char *path, const struct comparison *c, const struct side *a, const struct side *b);
/* The same for n comparisons in one file (a test suite, or a section, each). */
int verdicts_junit_n(const char *path, int n, const struct comparison *c, const struct side *a, const struct side *b);
int verdicts_markdown_n(const char *path, int n, const struct comparison *c, const struct side *a, const struct side *b);
/* A profile's share row (profile.self.F, profile.children.F): left out
 * of the tables, which would be hundreds of them, and told as the top
 * movers instead. */
bool verdict_is_share(const struct verdict_row *r);
/* "Where the time went": the rows of children shares that moved most,
 * largest first, as indexes into c->rows; how many, at most max. */
int verdicts_top_movers(const struct comparison *c, int *idx, int max);

#endif
