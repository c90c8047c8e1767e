/* Targets: where a point runs. One file each (target_NAME.c, defining
 * target_NAME) and one line in targets.def; config validation, the suite
 * and `rmapbench targets` read that one table. A run asks its target
 * three things: prepare (check the config, find what every point needs,
 * once), plan a point (its command line) and run it (with what it
 * collects). */
#ifndef RMAPBENCH_TARGET_H
#define RMAPBENCH_TARGET_H

#include <stdbool.h>

struct point_env;
struct point_out;
struct point_spec;
struct run_meta;

struct target {
	const char *name, *summary;
	/* the most users a point takes: a host or vm point forks a process
	 * a user (under pid_max); 0, as the engine's simulated ones: the
	 * users key's own bound */
	long max_users;
	/* the config's kernel key names the guest every point boots */
	bool boots_kernel;
	/* Once a run, before anything is recorded: 0, or -1 having said why
	 * (naming the config's file) on stderr. Fills env's target part. */
	int (*prepare)(struct point_env *env, const char *db_path);
	/* What ran the points, into the run's record (NULL: this host). */
	void (*describe)(const struct point_env *env, struct run_meta *m);
	/* One point, planned (its command, point_plan_fn), run and
	 * collected: its samples in out either way; 0 when done. */
	int (*run)(const struct point_env *env, const struct point_spec *ps, struct point_out *out);
};

#define TARGET(name) extern const struct target target_##name;
#include "targets.def"
#undef TARGET

extern const struct target *const targets[];
const struct target *target_find(const char *name);
/* "host, vm, engine": for error messages. */
const char *target_names(void);

#endif
