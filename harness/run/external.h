/* Workloads that are not ours but run as points beside ours, each a
 * registration record (as stress-ng registers its stressors). Adding one:
 * a file harness/run/ext_NAME.c defining its record, and its line in
 * external.c. Config validation, `rmapbench workloads`, the suite's
 * checks and the point runner all read that one list. */
#ifndef RMAPBENCH_EXTERNAL_H
#define RMAPBENCH_EXTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"

struct config;
struct point_cmd;

struct external_workload {
	const char *name, *summary;
	const char *program;   /* looked up on PATH; the suite refuses to start without it */
	bool host_only;        /* not in guests (the guest has only our static binaries) */
	/* The command for one point (point_cmd_start: argv[0] the program),
	 * with what it writes its results to (out_path) and the params text
	 * recorded with the point. */
	void (*argv)(const struct config *cfg, long users, const char *out_path, struct point_cmd *c);
	/* Reads out_path into samples; -1 when it holds none. */
	int (*collect)(const char *out_path, long users, struct sample_set *ss);
};

extern const struct external_workload *const external_workloads[];
const struct external_workload *external_workload_find(const char *name);

#endif
