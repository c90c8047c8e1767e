/* Target vm: each point one boot of a kernel image in QEMU (stock, one of
 * our recipes, or an image), rmapbench-load inside with the guest agent,
 * results back as frames on a serial port (point_vm.c). */
#include "config.h"
#include "db.h"
#include "external.h"
#include "kernel.h"
#include "point.h"
#include "target.h"
#include "target_host.h"
#include "paths.h"
#include "util.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>

static int vm_prepare(struct point_env *env, const char *db_path)
{
	(void)db_path;
	const struct config *cfg = env->cfg;
	char err[1200];
	struct vm_guest *g = calloc(1, sizeof(*g));
	if (!g)
		abort();
	env->priv = g;
	if (target_find_load(env) < 0)
		return -1;
	if (rb_sibling_binary("RMAPBENCH_AGENT", "rmapbench-agent", g->agent_path, sizeof(g->agent_path)) < 0) {
		rb_error("guest agent %s is missing or not executable (run 'make')", g->agent_path);
		return -1;
	}
	if (!rb_have_program("qemu-system-x86_64")) {
		rb_error("%s: target vm needs qemu-system-x86_64 (package qemu-system-x86; scripts/deps.sh)", cfg->path);
		return -1;
	}
	for (int i = 0; i < cfg->n_workloads; i++) {
		const struct external_workload *x = external_workload_find(cfg->workloads[i]);
		if (x && x->host_only) {
			rb_error("%s: %s runs on the host target only", cfg->path, x->name);
			return -1;
		}
	}
	if (kernel_prepare(cfg->kernel, &g->kernel, err, sizeof(err)) < 0) {
		rb_error("%s: kernel = %s: %s", cfg->path, cfg->kernel, err);
		return -1;
	}
	return target_check_programs(env);
}

/* the kernel is the guest's: its release, config and label */
static void vm_describe(const struct point_env *env, struct run_meta *m)
{
	const struct vm_guest *g = env->priv;
	m->kernel_release = g->kernel.release;
	m->kernel_config_hash = g->kernel.config_hash[0] ? g->kernel.config_hash : NULL;
	m->kernel_label = g->kernel.label;
}

static int vm_run(const struct point_env *env, const struct point_spec *ps, struct point_out *out)
{
	return point_run_vm(env, env->priv, ps, target_plan_kernel, out);
}

const struct target target_vm = {
	.name = "vm",
	.summary = "a kernel image booted in QEMU under a watchdog, one boot a point",
	.max_users = WL_NATIVE_MAX_USERS,
	.boots_kernel = true,
	.prepare = vm_prepare,
	.describe = vm_describe,
	.run = vm_run,
};
