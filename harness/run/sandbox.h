/* The cage around every point: a memory cgroup limit and a pids limit (v1
 * or v2, whichever the host has), rlimits in the child, and a way to kill
 * everything inside. When cgroups cannot be had (not root, no controller),
 * the point runs under rlimits alone and says so. */
#ifndef RMAPBENCH_SANDBOX_H
#define RMAPBENCH_SANDBOX_H

#include <sys/types.h>

#include "sample.h"

struct sandbox {
	int version;              /* 0: rlimits only, 1: cgroup v1, 2: cgroup v2 */
	char mem_dir[512];
	char pids_dir[512];
	char why[240];            /* why there is no cgroup */
	long mem_limit_mib, pids_max;
};

/* The cgroup root rmapbench uses: RMAPBENCH_CGROUP_NAME or "rmapbench". */
int sandbox_create(struct sandbox *sb, const char *tag, long mem_limit_mib, long pids_max);
int sandbox_attach(struct sandbox *sb, pid_t pid);
/* SIGKILLs everything inside until it is empty; returns what was left. */
int sandbox_kill_all(struct sandbox *sb);
void sandbox_report(struct sandbox *sb, struct sample_set *out);
void sandbox_destroy(struct sandbox *sb);
/* Cleans the cgroups of harnesses that died without cleaning up. */
void sandbox_reap_stale(void);
/* In the child before exec. */
void sandbox_rlimits(const struct sandbox *sb);
long sandbox_default_mem_mib(void);
long sandbox_default_pids(long users);

#endif
