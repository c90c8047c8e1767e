/* `rmapbench replay FILE [--variant all|V] [--name NAME] [--check]
 * [--max-mib N] [--no-db]`: its flags; the replay is
 * harness/jobs/trace_replay.c. */
#include "commands.h"
#include "flags.h"
#include "trace_replay.h"
#include "util.h"

#include <stdio.h>

static int usage(void)
{
	fputs("usage: rmapbench replay FILE [--variant all|legacy|avc-rc|avc|modern] [--name NAME] [--check]\n"
	      "                      [--max-mib N] [--no-db]\n"
	      "  a trace from `rmapbench record` (or written by hand) on the designs side by side: a run per\n"
	      "  design (target engine, workload replay:NAME), walks counted at the trace's peak and end.\n"
	      "  --check: the invariant checker after every operation, its faults counted per design (exit 3\n"
	      "  when a design without known bugs faults; avc-rc's are 2010's).\n"
	      "  --max-mib N: the replay's memory budget (default 2048): past it, an error naming the design and\n"
	      "  the line, and nothing recorded.\n",
	      stderr);
	return 2;
}

int cmd_replay(int argc, char **argv, const char *db_path)
{
	struct trace_replay_opts o = { .variant = "all", .max_mib = REPLAY_DEFAULT_MAX_MIB };
	const char *pos[1];
	int npos = 0;
	const struct flag flags[] = {
		{ "--variant", FLAG_STRING, &o.variant, 0, 0, NULL },
		{ "--name", FLAG_STRING, &o.name, 0, 0, NULL },
		{ "--no-db", FLAG_BOOL, &o.no_db, 0, 0, NULL },
		{ "--check", FLAG_BOOL, &o.check, 0, 0, NULL },
		{ "--max-mib", FLAG_ULONG, &o.max_mib, 1UL << 20, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_help(argc, argv)) {
		usage();
		return 0;
	}
	if (flags_parse("replay", flags, argc, argv, pos, 1, &npos) < 0 || npos != 1)
		return usage();
	o.path = pos[0];
	return trace_replay(&o, db_path);
}
