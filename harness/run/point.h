#ifndef RMAPBENCH_POINT_H
#define RMAPBENCH_POINT_H

#include "config.h"
#include "sample.h"

struct progress;
struct kernel_info;

struct point_spec {
	int seq;
	const char *workload;
	long users;
	int repetition;
};

struct point_env {
	const struct config *cfg;
	const char *load_path;  /* the rmapbench-load binary */
	const char *log_dir;    /* per-run directory for logs */
	struct progress *pg;
	const struct kernel_info *kernel; /* target vm */
	const char *agent_path;           /* the guest agent binary (vm) */
	/* target engine, when the config sets no walk cost: the calibration's
	 * (sim_walk_curve's text, else one VMA's cost) and where it came from
	 * (results/walk-calibration.tsv); walk_cost_source NULL otherwise */
	double vma_ns;
	const char *walk_curve;
	const char *walk_cost_source;
};

struct point_out {
	struct sample_set ss;
	char status[16];        /* done | failed | aborted */
	char error[1024];
	char params[2048];
	char started[32], ended[32];
};

#define POINT_MAX_ARGS 64
#define POINT_ARG_LEN 1100

/* argv for a point of one of our workloads (external ones have their own,
 * external.h) and the text recorded as its params. argv[0] is
 * env->load_path. */
int point_argv(const struct point_env *env, const struct point_spec *ps, char **argv, char store[][POINT_ARG_LEN],
	       char *params, size_t plen);

/* 0 when the point is done; its samples are in out->ss either way. */
int point_run(const struct point_env *env, const struct point_spec *ps, struct point_out *out);
/* The same point inside a guest: one boot of env->kernel per point. */
int point_run_vm(const struct point_env *env, const struct point_spec *ps, struct point_out *out);

/* What a failed guest's console says, for the point's error: the panic
 * line first when there is one, then the last bytes. s is changed. */
void console_tail_of(char *s, char *buf, size_t len);

#endif
