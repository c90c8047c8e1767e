/* sim_walk_curve: parsed with bounds (it comes from a config or a file),
 * and read by reclaim for each walk. */
#include "walkcurve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int walk_curve_parse(const char *text, struct walk_curve *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	if (strlen(text) > WALK_CURVE_TEXT_MAX) {
		snprintf(err, errlen, "sim_walk_curve: longer than %d characters", WALK_CURVE_TEXT_MAX);
		return -1;
	}
	const char *p = text;
	while (*p) {
		if (c->n == WALK_CURVE_MAX) {
			snprintf(err, errlen, "sim_walk_curve: more than %d points", WALK_CURVE_MAX);
			return -1;
		}
		char *end;
		double v = strtod(p, &end);
		if (end == p || *end != ':' || !isfinite(v) || v <= 0 || v > 1e7 || v != floor(v)) {
			snprintf(err, errlen, "sim_walk_curve: point %d: expected VMAS:NS with VMAS a whole number above 0",
				 c->n + 1);
			return -1;
		}
		p = end + 1;
		double ns = strtod(p, &end);
		if (end == p || (*end && *end != ',') || !isfinite(ns) || ns < 0 || ns > 1e12) {
			snprintf(err, errlen, "sim_walk_curve: point %d: NS is not a cost in ns", c->n + 1);
			return -1;
		}
		if (c->n && (v <= c->vmas[c->n - 1] || ns < c->ns[c->n - 1])) {
			snprintf(err, errlen,
				 "sim_walk_curve: point %d: VMAS must rise and the cost must not fall (%g:%g after %g:%g)",
				 c->n + 1, v, ns, c->vmas[c->n - 1], c->ns[c->n - 1]);
			return -1;
		}
		c->vmas[c->n] = v;
		c->ns[c->n++] = ns;
		p = *end ? end + 1 : end;
		if (*end && !*p) {
			snprintf(err, errlen, "sim_walk_curve: a comma with no point after it");
			return -1;
		}
	}
	if (!c->n) {
		snprintf(err, errlen, "sim_walk_curve: no point");
		return -1;
	}
	return 0;
}

double walk_curve_cost(const struct walk_curve *c, double vmas)
{
	if (vmas <= 0 || !c->n)
		return 0;
	double x0 = 0, y0 = 0;
	for (int i = 0; i < c->n; i++) {
		if (vmas <= c->vmas[i])
			return y0 + (c->ns[i] - y0) * (vmas - x0) / (c->vmas[i] - x0);
		x0 = c->vmas[i];
		y0 = c->ns[i];
	}
	return vmas * y0 / x0;
}
