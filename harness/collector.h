/* A collector measures around one point: start() just before the workload
 * is released from its gate, stop() after it has been reaped. Whatever it
 * cannot measure it records as unavailable, with the reason. */
#ifndef RMAPBENCH_COLLECTOR_H
#define RMAPBENCH_COLLECTOR_H

#include <sys/resource.h>
#include <sys/types.h>

#include "config.h"
#include "sample.h"

struct coll_ctx {
	const struct config *cfg;
	pid_t pid;                 /* the workload's main process, held at its gate */
	struct sample_set *out;
	struct rusage ru;          /* the whole reaped tree: set before stop() */
	double wall_s;             /* release to reap: set before stop() */
	void *priv;
};

struct collector {
	const char *name;
	void (*start)(struct coll_ctx *c);
	void (*stop)(struct coll_ctx *c);
};

extern const struct collector coll_cpu, coll_lock, coll_pfm, coll_vmstat, coll_rmap;
extern const struct collector *const collectors[];

#endif
