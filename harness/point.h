#ifndef RMAPBENCH_POINT_H
#define RMAPBENCH_POINT_H

#include "config.h"
#include "sample.h"

struct progress;

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
};

struct point_out {
	struct sample_set ss;
	char status[16];        /* done | failed | aborted */
	char error[1024];
	char params[2048];
	char started[32], ended[32];
};

/* 0 when the point is done; its samples are in out->ss either way. */
int point_run(const struct point_env *env, const struct point_spec *ps, struct point_out *out);

#endif
