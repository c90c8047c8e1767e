/* A collector measures around one point: start() just before the workload
 * is released from its gate, stop() after it has been reaped. Whatever it
 * cannot measure it records as unavailable, with the reason.
 *
 * Adding one: a file collect/collect_NAME.c defining `const struct
 * collector coll_NAME`, and its line in collect/collectors.def. The
 * harness, config validation and the guest agent all read that one list. */
#ifndef RMAPBENCH_COLLECTOR_H
#define RMAPBENCH_COLLECTOR_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sample.h"

struct coll_ctx {
	pid_t pid;                 /* the workload's main process, held at its gate */
	struct sample_set *out;
	const char (*pfm_events)[48]; /* libpfm4 event names (the pfm collector) */
	int n_pfm_events;
	int profile_hz;            /* > 0: the profile collector samples at this rate (opt-in) */
	struct rusage ru;          /* the whole reaped tree: set before stop() */
	double wall_s;             /* release to reap: set before stop() */
	void *priv;
};

struct collector {
	const char *name;
	const char *summary;
	bool guest;                /* the vm target's guest agent runs it too */
	void (*start)(struct coll_ctx *c);
	void (*stop)(struct coll_ctx *c);
};

#define COLLECTOR(name) extern const struct collector coll_##name;
#include "collectors.def"
#undef COLLECTOR

/* Every collector, in collectors.def's order, NULL-terminated. */
extern const struct collector *const collectors[];
const struct collector *collector_find(const char *name);

#endif
