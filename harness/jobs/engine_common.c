/* What the `rmapbench engine` subcommands share: the usage, the design
 * named by --variant, JSON output, and recording as an engine-target run. */
#include "engine_common.h"
#include "escape.h"
#include "run_here.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

int engine_usage(const char *msg)
{
	if (msg)
		rb_error("%s", msg);
	fputs("usage: rmapbench engine walkcost --variant V|all --children N[,N...] --pages P [--json]\n"
	      "       rmapbench engine scenario --list | NAME --variant V [--json]\n"
	      "       rmapbench engine replay FILE --variant V [--json]\n"
	      "       rmapbench engine fuzz (--variant V | --differential) [--ops N] [--seconds S] [--seed S]\n"
	      "                             [--inject-enomem] [--stop-at-fault] [--known-as-faults]\n"
	      "                             [--until KIND] [--trace-out FILE] [--json]\n"
	      "       rmapbench engine threads --variant V [--users N] [--seconds S] [--seed S] [--json]\n"
	      "variants: legacy (2.6.33), avc-rc (2.6.34-rc1), avc (2.6.34), modern (6.1)\n"
	      "exit status: 0 invariants held, 3 a fault found, 2 usage\n",
	      stderr);
	return 2;
}

const struct rmap_ops *engine_variant(const char *name)
{
	if (!name) {
		engine_usage("--variant is required");
		return NULL;
	}
	const struct rmap_ops *ops = rmap_ops_find(name);
	if (!ops) {
		char known[200] = "";
		for (int i = 0; rmap_variants[i]; i++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", i ? ", " : "",
				 rmap_variants[i]->name);
		rb_error("--variant %s: unknown (%s)", name, known);
		engine_usage(NULL);
	}
	return ops;
}

void engine_json_close(const struct sample_set *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		printf(", ");
		json_write_string(stdout, ss->v[i].metric);
		if (ss->v[i].unavailable)
			printf(": null");
		else
			printf(": %.9g", ss->v[i].value);
	}
	printf("}\n");
}

int engine_record_points(const char *db_path, const struct eargs *a, const char *variant, const char *workload,
			 const long *users, const struct sample_set *ss, int n, const char *note, int64_t *run_out)
{
	if (a->no_db)
		return 0;
	struct run_here here;
	struct recorded_point p[ARRAY_SIZE(a->children)];
	run_here_init(&here, "engine", variant, a->config_name ? a->config_name : "engine", a->cmdline);
	here.m.tag = a->tag;
	for (int i = 0; i < n && i < (int)ARRAY_SIZE(p); i++)
		p[i] = (struct recorded_point){ workload, users[i], a->cmdline, &ss[i] };
	int64_t run;
	int rc = run_record(db_path, &here.m, p, n, note, &run);
	if (run_out)
		*run_out = run;
	return rc;
}

int engine_record(const char *db_path, const struct eargs *a, const char *variant, const char *workload, long users,
		  const struct sample_set *ss, const char *note)
{
	return engine_record_points(db_path, a, variant, workload, &users, ss, 1, note, NULL);
}

