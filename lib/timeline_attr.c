/* The timeline attribute's parser: bounded, every number checked. */
#include "timeline_attr.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A plain decimal at *p (digits and a point: what the simulator prints,
 * not strtod's signs, spaces, exponents, hex or infinities) followed by
 * one of `ends` or the end; advances *p past it. */
static int number(const char **p, const char *ends, double lo, double hi, double *v)
{
	size_t len = strspn(*p, "0123456789.");
	char *e;
	if (!len || len > 32)
		return -1;
	errno = 0;
	double x = strtod(*p, &e);
	if (e != *p + len || errno || !isfinite(x) || x < lo || x > hi)
		return -1;
	int ok = 0;
	for (const char *c = ends; *c; c++)
		ok |= *e == *c;
	if (!ok && *e)
		return -1;
	*v = x;
	*p = e;
	return 0;
}

int timeline_attr_parse(const char *s, struct timeline_attr *t, char *err, size_t errlen)
{
	t->n = 0;
	const char *p = s;
	if (number(&p, " ", 1e-9, 1e9, &t->step_s) < 0) {
		snprintf(err, errlen, "timeline: expected a window's length in seconds first");
		return -1;
	}
	while (*p) {
		if (t->n == TIMELINE_ATTR_MAX) {
			snprintf(err, errlen, "timeline: more than %d windows", TIMELINE_ATTR_MAX);
			return -1;
		}
		if (*p++ != ' ') {
			snprintf(err, errlen, "timeline: window %d: expected one space before it", t->n + 1);
			return -1;
		}
		if (number(&p, "/", 0, 100, &t->sys_pct[t->n]) < 0 || *p++ != '/' ||
		    number(&p, " ", 0, 100, &t->iowait_pct[t->n]) < 0) {
			snprintf(err, errlen, "timeline: window %d: expected SYS/IOWAIT, each within [0, 100]", t->n + 1);
			return -1;
		}
		t->n++;
	}
	return 0;
}
