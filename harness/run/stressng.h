/* stress-ng: as a companion load beside a point (background memory
 * pressure or fork churn), and as the external workload "stress-ng-fork"
 * that our fork storm is measured against. Bogo-ops are not comparable
 * across stress-ng versions, so its version goes with every point. */
#ifndef RMAPBENCH_STRESSNG_H
#define RMAPBENCH_STRESSNG_H

#include <sys/types.h>

#include "sample.h"

struct companion {
	pid_t pid;
	char yaml[1024];
	char args[256];
	char why[400];         /* why it failed, after companion_stop */
};
struct sandbox;

int stressng_version(char *buf, size_t len);
/* Parses a -Y file into stressng_<stressor>_* metrics; forks_as: when set,
 * the fork stressor's ops also become forks and forks_per_s. */
int stressng_parse_yaml(const char *path, struct sample_set *out, int forks_as);
/* The same over a text already read (cut up in place). */
int stressng_parse_yaml_text(char *text, struct sample_set *out, int forks_as);
/* A config's stress_ng, checked against the table of what a companion may
 * be told (stressors with a count, numeric and size options, a few flags):
 * no option that names a file or a path, for stress-ng runs as root. 0, or
 * -1 with why (naming the word). */
int stressng_args_check(const char *args, char *why, size_t len);
/* Started inside the point's sandbox (sb may be NULL). */
int companion_start(struct companion *c, const char *args, const char *yaml, double timeout_s, struct sandbox *sb);
/* -1 when it failed (ended early, or a non-zero status): c->why says how,
 * and the point fails with it. */
int companion_stop(struct companion *c, struct sample_set *out);

#endif
