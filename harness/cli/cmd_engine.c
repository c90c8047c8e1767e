/* `rmapbench engine ...`: the userspace rmap engine from the command line.
 * Exit status: 0 the invariants held, 3 a fault was found (its report is
 * printed), 2 a usage error, 1 anything else (the database, a file). Every
 * command is recorded as an engine-target run. */
#include "engine_jobs.h"
#include "commands.h"
#include "engine_common.h"
#include "flags.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

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

int cmd_engine(int argc, char **argv, const char *db_path)
{
	struct eargs a = { 0 };
	if (argc < 1)
		return engine_usage("engine: a subcommand is required");
	if (flags_help(argc, argv)) {
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
