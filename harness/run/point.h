#ifndef RMAPBENCH_POINT_H
#define RMAPBENCH_POINT_H

#include <limits.h>
#include <stdbool.h>

#include "kernel.h"
#include "point_cmd.h"
#include "sample.h"
#include "walkcurve.h"

struct config;
struct progress;
struct target;

struct point_spec {
	int seq;
	const char *workload;
	long users;
	int repetition;
};

struct point_env {
	const struct config *cfg;
	const struct target *target;
	const char *log_dir;    /* per-run directory for logs */
	struct progress *pg;
	char load_path[PATH_MAX]; /* the point's program: rmapbench-load or rmapbench-sim */
	/* What else the target's prepare found for its points, in a struct
	 * the target defines (vm: struct vm_guest); the suite frees it with
	 * the env. NULL for a target that needs nothing more. */
	void *priv;
};

/* What target vm's prepare finds, for point_run_vm. */
struct vm_guest {
	char agent_path[PATH_MAX]; /* the guest agent */
	struct kernel_info kernel; /* the guest's kernel */
};

struct point_out {
	struct sample_set ss;
	char status[16];        /* done | failed | aborted */
	char error[1024];
	char params[2048];
	char started[32], ended[32];
};

/* A target's command for a point: argv[0] the program, the params text
 * recorded with it; out_path is where an external workload writes. */
typedef void point_plan_fn(const struct point_env *env, const struct point_spec *ps, const char *out_path,
			   struct point_cmd *c);

/* A point as a process tree caged on this host (host and engine), its
 * command from plan, measured by the host's collectors when collect: 0
 * when it is done; its samples are in out->ss either way. */
int point_run(const struct point_env *env, const struct point_spec *ps, point_plan_fn *plan, bool collect,
	      struct point_out *out);
/* The same point inside a guest: one boot of g->kernel per point. */
int point_run_vm(const struct point_env *env, const struct vm_guest *g, const struct point_spec *ps,
		 point_plan_fn *plan, struct point_out *out);

/* What a failed guest's console says, for the point's error: the panic
 * line first when there is one, then the last bytes. s is changed. */
void console_tail_of(char *s, char *buf, size_t len);

#endif
