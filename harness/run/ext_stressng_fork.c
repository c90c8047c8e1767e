/* stress-ng-fork: `stress-ng --fork USERS` for duration_s, the yardstick
 * the fork storm is measured against. Bogo-ops are not comparable across
 * stress-ng versions, so its version goes with every point. */
#include "config.h"
#include "external.h"
#include "point_cmd.h"
#include "stressng.h"

#include <stdio.h>
#include <stdlib.h>

static void sng_fork_argv(const struct config *cfg, long users, const char *out_path, struct point_cmd *c)
{
	/* The same process count and duration as the fork storm beside it. */
	const char *d = config_param(cfg, "duration_s");
	double dur = d ? strtod(d, NULL) : 0;
	if (dur <= 0)
		dur = 10;
	point_cmd_start(c, "stress-ng");
	point_cmd_note(c, "stress-ng");
	point_cmd_add(c, "--fork");
	point_cmd_add(c, "%ld", users);
	point_cmd_add(c, "--timeout");
	point_cmd_add(c, "%.0fs", dur);
	point_cmd_arg(c, "-Y");
	point_cmd_arg(c, "%s", out_path);
	point_cmd_arg(c, "--metrics-brief");
}

static int sng_fork_collect(const char *out_path, long users, struct sample_set *ss)
{
	char ver[64];
	if (stressng_version(ver, sizeof(ver)) == 0)
		ss_attr(ss, "stress_ng_version", "%s", ver);
	int rc = stressng_parse_yaml(out_path, ss, 1);
	ss_add(ss, "users", (double)users, "users");
	return rc;
}

const struct external_workload ext_stressng_fork = {
	.name = "stress-ng-fork",
	.summary = "stress-ng --fork USERS for duration_s: the fork storm's yardstick",
	.program = "stress-ng",
	.host_only = true,
	.argv = sng_fork_argv,
	.collect = sng_fork_collect,
};
