/* What each metric means for a verdict: which way is better, the smallest
 * change worth flagging, and whether the engine counts it exactly (then
 * any change is a verdict, with no test). One table, metrics.c; README
 * "Verdicts" lists it. */
#ifndef RMAPBENCH_METRICS_H
#define RMAPBENCH_METRICS_H

#include <stdbool.h>

struct metric_rule {
	const char *name;   /* a metric, or "*suffix" */
	int better;         /* +1 higher is better, -1 lower is better, 0 neither */
	double min_effect;  /* relative change below which nothing is flagged */
	bool exact;         /* a count the engine reproduces exactly */
	bool drifts;        /* a benchmark's time: judged against its run's drift (verdict.h) */
	bool appears;       /* a count whose appearance is the verdict: none in A, some in B */
	bool points;        /* a share in percent: min_effect is in percentage points, and a
			     * side that profiled without the row had 0% of it */
};

/* The rule for a metric: its own row, else the first "*suffix" row it
 * ends with or "prefix*" row it starts with, else neutral (no direction,
 * 5%, not exact). */
const struct metric_rule *metric_rule(const char *metric);
extern const struct metric_rule metric_rules[];

#endif
