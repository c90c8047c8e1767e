/* A point's command line as it is built (point_cmd.c): argv, its strings
 * kept in the struct, and the params text recorded with the point (what
 * the workload was asked, less file names). Every target of ours and
 * every external workload fills one. */
#ifndef RMAPBENCH_POINT_CMD_H
#define RMAPBENCH_POINT_CMD_H

#include <stdbool.h>
#include <stddef.h>

struct config;

#define POINT_MAX_ARGS 64
#define POINT_ARG_LEN 1100

struct point_cmd {
	char *argv[POINT_MAX_ARGS + 1];
	char store[POINT_MAX_ARGS][POINT_ARG_LEN];
	int n;
	char *params;
	size_t plen, used;
};

/* Where params go: plen bytes of the caller's. */
void point_cmd_init(struct point_cmd *c, char *params, size_t plen);
/* argv[0] program, params empty: a command begun again. */
void point_cmd_start(struct point_cmd *c, const char *program);
/* One word into argv only, or into argv and params. Past POINT_MAX_ARGS
 * words, dropped. */
void point_cmd_arg(struct point_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void point_cmd_add(struct point_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Words into params only (a program's name, as it is recorded). */
void point_cmd_note(struct point_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Ours: program WORKLOAD users=N, then the config's workload keys less
 * those skip(key) refuses, then max_s (argv only) unless the config sets
 * it: the workload's own watchdog fires before ours. */
void point_cmd_ours(struct point_cmd *c, const char *program, const char *workload, long users);
void point_cmd_params(struct point_cmd *c, const struct config *cfg, bool (*skip)(const char *key));

#endif
