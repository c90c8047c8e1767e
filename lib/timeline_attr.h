/* The `timeline` attribute of an engine point: the point cut into windows
 * of equal length, each one's system and iowait time in % of the CPUs'
 * time, as `vmstat` would have printed them:
 *
 *   STEP_S SYS/IOWAIT SYS/IOWAIT ...        e.g. "1.840 100/0 97/0 0/99"
 *
 * The simulator writes it (sim/run.c, in one `info` line the harness keeps
 * whole: under 208 bytes); the paper figure reads it back from a database,
 * so it is parsed as outside bytes: at most TIMELINE_ATTR_MAX windows, a
 * step above 0, each share within [0, 100]. */
#ifndef RMAPBENCH_TIMELINE_ATTR_H
#define RMAPBENCH_TIMELINE_ATTR_H

#include <stddef.h>

#define TIMELINE_ATTR_MAX 64

struct timeline_attr {
	double step_s;
	int n;
	double sys_pct[TIMELINE_ATTR_MAX], iowait_pct[TIMELINE_ATTR_MAX];
};

/* 0, or -1 with the reason (naming the window) in err. */
int timeline_attr_parse(const char *s, struct timeline_attr *t, char *err, size_t errlen);

#endif
