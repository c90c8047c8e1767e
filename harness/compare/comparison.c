/* A comparison's rows (comparison.h). */
#include "comparison.h"

#include <stdlib.h>
#include <string.h>

const char *verdict_name(enum verdict_kind k)
{
	static const char *const names[] = { "regression", "improvement", "changed", "same",
					      "too few",    "only in A",   "only in B", "not confirmed" };
	return names[k];
}

struct verdict_row *comparison_row(struct comparison *c, const char *workload, long users, const char *metric)
{
	for (int i = 0; i < c->n; i++)
		if (c->rows[i].users == users && !strcmp(c->rows[i].workload, workload) &&
		    !strcmp(c->rows[i].metric, metric))
			return &c->rows[i];
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 64;
		struct verdict_row *r = realloc(c->rows, (size_t)cap * sizeof(*r));
		if (!r)
			abort();
		c->rows = r;
		c->cap = cap;
	}
	struct verdict_row *r = &c->rows[c->n++];
	memset(r, 0, sizeof(*r));
	r->workload = strdup(workload);
	r->metric = strdup(metric);
	if (!r->workload || !r->metric)
		abort();
	r->users = users;
	return r;
}

void comparison_free(struct comparison *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->rows[i].workload);
		free(c->rows[i].metric);
		free(c->rows[i].text);
	}
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

bool comparison_regressed_on(const struct comparison *c, const char *metric)
{
	for (int i = 0; i < c->n; i++)
		if (c->rows[i].kind == V_REGRESSION && !strcmp(c->rows[i].metric, metric))
			return true;
	return false;
}

int comparison_failures(const struct comparison *c)
{
	if (c->unjudged[0])
		return 0;
	if (c->expect[0])
		return !comparison_regressed_on(c, c->expect);
	return c->counts[V_REGRESSION];
}
