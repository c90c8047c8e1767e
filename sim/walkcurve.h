/* What a walk of v VMAs costs, as the running kernel measured it
 * (`rmapbench calibrate-walk`): a per-VMA cost that stays the same however
 * many VMAs a walk visits would underprice long walks, since past a few
 * thousand processes their page tables leave the cache and each visit
 * costs more (on the machine this was written on, about 0.35 us a VMA at
 * 4,000 and 1.3 us at 12,000 to 16,000). So the calibration keeps the
 * curve, and a walk is charged the measured cost of a walk its length.
 *
 *   sim_walk_curve=N:NS,N:NS,...   ns per 4 KiB page for a walk over N VMAs
 *                                  (the page-out's own part taken off), N
 *                                  rising, the costs not falling
 *
 * Between two points the cost is on the line between them (from 0 at no
 * VMA); past the last, each VMA costs the last point's average. */
#ifndef RMAPBENCH_WALKCURVE_H
#define RMAPBENCH_WALKCURVE_H

#include <stddef.h>

#define WALK_CURVE_MAX 16
#define WALK_CURVE_TEXT_MAX 512

struct walk_curve {
	int n;
	double vmas[WALK_CURVE_MAX], ns[WALK_CURVE_MAX];
};

/* 0, or -1 with why in err (naming the point). */
int walk_curve_parse(const char *text, struct walk_curve *c, char *err, size_t errlen);
/* ns per 4 KiB page for a walk that visited `vmas` VMAs. */
double walk_curve_cost(const struct walk_curve *c, double vmas);

#endif
