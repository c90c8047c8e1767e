/* What the CPUs and the tasks did, in 10 ms bins of virtual time: CPU time
 * busy (and of it, in the kernel) and task time asleep on the device.
 * iowait is idle time while tasks wait on IO, bin by bin, as the kernel
 * counts it: an idle CPU is in iowait when a task that slept from it
 * waits for IO. Spread over the whole point instead, an IO-bound stretch
 * after a CPU-bound one would read as plain idle. */
#ifndef RMAPBENCH_TIMELINE_H
#define RMAPBENCH_TIMELINE_H

#include <stddef.h>

#define TL_BIN_NS 10e6

enum tl_kind { TL_BUSY, TL_SYS, TL_IOWAIT, TL_NR }; /* TL_SYS: the part of TL_BUSY in the kernel */

struct timeline {
	double *bin[TL_NR];
	size_t nbins;
};

/* Adds [a, b) to the bins of kind k; aborts when out of memory, as the
 * simulator's other growth does. */
void tl_add(struct timeline *tl, enum tl_kind k, double a, double b);
/* Within [0, end): the idle CPU time of `cpus` CPUs, and of it the part in
 * iowait (bin by bin: idle, or the tasks' time waiting, whichever is less). */
void tl_idle(const struct timeline *tl, long cpus, double end, double *idle, double *iowait);
/* The point as `vmstat` would have shown it: [0, end) cut into n windows
 * of equal length (*step_ns), each one's system and iowait time in % of
 * the CPUs' time; n windows are written, fewer when the point is shorter
 * than n bins. Returns how many. */
int tl_windows(const struct timeline *tl, long cpus, double end, int n, double *step_ns, double *sys_pct,
	       double *iowait_pct);
void tl_free(struct timeline *tl);

#endif
