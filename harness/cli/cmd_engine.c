/* `rmapbench engine ...`: the userspace rmap engine from the command line.
 * Exit status: 0 the invariants held, 3 a fault was found (its report is
 * printed), 2 a usage error, 1 anything else (the database, a file). Every
 * command is recorded as an engine-target run. */
#include "cmd_engine.h"
#include "commands.h"
#include "escape.h"
#include "flags.h"
#include "record.h"
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

static int parse_args(int argc, char **argv, struct eargs *a)
{
	size_t used = 0;
	for (int i = 0; i < argc; i++)
		used += (size_t)snprintf(a->cmdline + used, used < sizeof(a->cmdline) ? sizeof(a->cmdline) - used : 0,
					 "%s%s", i ? " " : "", argv[i]);
	unsigned long seconds = 0, seed = 0;
	const struct flag flags[] = {
		{ "--variant", FLAG_STRING, &a->variant, 0, 0, NULL },
		{ "--children", FLAG_ULIST, a->children, 1000000, ARRAY_SIZE(a->children), &a->nchildren },
		{ "--users", FLAG_ULONG, &a->users, 8, 0, NULL },
		{ "--pages", FLAG_ULONG, &a->pages, 1000000, 0, NULL },
		{ "--ops", FLAG_ULONG, &a->ops, 1UL << 40, 0, NULL },
		{ "--seconds", FLAG_ULONG, &seconds, 86400, 0, NULL },
		{ "--seed", FLAG_ULONG, &seed, 4294967295UL, 0, NULL },
		{ "--trace-out", FLAG_STRING, &a->trace_out, 0, 0, NULL },
		{ "--until", FLAG_STRING, &a->until, 0, 0, NULL },
		{ "--json", FLAG_BOOL, &a->json, 0, 0, NULL },
		{ "--list", FLAG_BOOL, &a->list, 0, 0, NULL },
		{ "--differential", FLAG_BOOL, &a->differential, 0, 0, NULL },
		{ "--inject-enomem", FLAG_BOOL, &a->inject, 0, 0, NULL },
		{ "--stop-at-fault", FLAG_BOOL, &a->stop_at_fault, 0, 0, NULL },
		{ "--known-as-faults", FLAG_BOOL, &a->known_as_faults, 0, 0, NULL },
		{ "--no-db", FLAG_BOOL, &a->no_db, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	const char *pos[1];
	int npos;
	if (flags_parse("engine", flags, argc - 1, argv + 1, pos, 1, &npos) < 0)
		return -1;
	a->name = npos ? pos[0] : NULL;
	a->seconds = (double)seconds;
	a->seed = (unsigned)seed;
	return 0;
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

int cmd_engine(int argc, char **argv, const char *db_path)
{
	struct eargs a = { 0 };
	if (argc < 1)
		return engine_usage("engine: a subcommand is required");
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
		engine_usage(NULL);
		return 0;
	}
	if (parse_args(argc, argv, &a) < 0)
		return engine_usage(NULL);
	const char *sub = argv[0];
	if (!strcmp(sub, "walkcost"))
		return engine_walkcost(db_path, &a);
	if (!strcmp(sub, "scenario"))
		return engine_scenario(db_path, &a);
	if (!strcmp(sub, "replay"))
		return engine_replay(db_path, &a);
	if (!strcmp(sub, "fuzz"))
		return engine_fuzz(db_path, &a);
	if (!strcmp(sub, "threads"))
		return engine_threads(db_path, &a);
	rb_error("engine: unknown subcommand '%s'", sub);
	return engine_usage(NULL);
}
