/* Target host: each point a process tree of rmapbench-load (or an external
 * workload's program) on the running kernel, caged and measured by the
 * host's collectors. */
#include "config.h"
#include "external.h"
#include "point.h"
#include "sim.h"
#include "target.h"
#include "target_host.h"
#include "paths.h"
#include "util.h"
#include "workload.h"

#include <stdio.h>

int target_check_programs(const struct point_env *env)
{
	const struct config *cfg = env->cfg;
	for (int i = 0; i < cfg->n_workloads; i++) {
		const struct external_workload *x = external_workload_find(cfg->workloads[i]);
		if (x && !rb_have_program(x->program)) {
			rb_error("%s: workload %s needs %s, which is not installed (scripts/deps.sh installs it)",
				 cfg->path, x->name, x->program);
			return -1;
		}
	}
	if (cfg->stress_ng[0] && !rb_have_program("stress-ng")) {
		rb_error("%s: stress_ng needs stress-ng, which is not installed (scripts/deps.sh installs it)", cfg->path);
		return -1;
	}
	return 0;
}

int target_find_load(struct point_env *env)
{
	if (rb_sibling_binary("RMAPBENCH_LOAD", "rmapbench-load", env->load_path, sizeof(env->load_path)) < 0) {
		rb_error("workload binary %s is missing or not executable (run 'make')", env->load_path);
		return -1;
	}
	return 0;
}

static int host_prepare(struct point_env *env, const char *db_path)
{
	(void)db_path;
	return target_find_load(env) < 0 || target_check_programs(env) < 0 ? -1 : 0;
}

/* the machine model's keys: nothing to a real kernel */
static bool not_for_kernels(const char *key)
{
	return sim_param_known(key);
}

void target_plan_kernel(const struct point_env *env, const struct point_spec *ps, const char *out_path,
			struct point_cmd *c)
{
	const struct external_workload *ext = external_workload_find(ps->workload);
	if (ext && out_path) { /* none in a guest: vm refuses host_only ones */
		ext->argv(env->cfg, ps->users, out_path, c);
		return;
	}
	point_cmd_ours(c, env->load_path, ps->workload, ps->users);
	point_cmd_params(c, env->cfg, not_for_kernels);
}

/* the host's collectors measure the point's processes */
static int host_run(const struct point_env *env, const struct point_spec *ps, struct point_out *out)
{
	return point_run(env, ps, target_plan_kernel, true, out);
}

const struct target target_host = {
	.name = "host",
	.summary = "the running kernel: each point a caged process tree here",
	.max_users = WL_NATIVE_MAX_USERS,
	.prepare = host_prepare,
	.run = host_run,
};
