/* /proc/lock_stat (CONFIG_LOCK_STAT): clear, then read per class. */
#ifndef RMAPBENCH_LOCKSTAT_H
#define RMAPBENCH_LOCKSTAT_H

#include <stddef.h>

#include "sample.h"

struct lockstat_class {
	char name[128];            /* "-W"/"-R" of rw locks folded together */
	double contentions, wait_us, acquisitions, hold_us;
};

/* Parses a lock_stat text; returns the number of classes (max n). */
int lockstat_parse(const char *text, struct lockstat_class *v, int n);
int lockstat_clear(char *why, size_t len);
/* Reads /proc/lock_stat and records lockstat_* metrics. */
void lockstat_report(struct sample_set *out);

#endif
