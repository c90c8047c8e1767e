/* What the other targets take from the host's (target_host.c). */
#ifndef RMAPBENCH_TARGET_HOST_H
#define RMAPBENCH_TARGET_HOST_H

#include "point.h"

/* rmapbench-load beside us into env->load_path;
 * the programs the config's external workloads and stress_ng need; a
 * point of a real kernel (host, vm): our workload's keys less the machine
 * model's, or an external workload's own command. Each -1 said. */
int target_find_load(struct point_env *env);
int target_check_programs(const struct point_env *env);
point_plan_fn target_plan_kernel;

#endif
