/* `rmapbench bisect GOOD BAD --tree PATH --config FILE [--metric M | --error SIG]
 * [--junit F] [--markdown F]`, or `--series DIR [--recipe NAME]` instead
 * of --tree: its flags and its database; the bisect itself is
 * harness/jobs/bisect.c. Exit: 0 named, 1 an error, 2 usage or nothing
 * to bisect, 130 interrupted. */
#include "bisect.h"
#include "commands.h"
#include "flags.h"
#include "run_here.h"
#include "util.h"

#include <stdio.h>

static int usage(void)
{
	fputs("usage: rmapbench bisect GOOD BAD --tree PATH --config FILE [--metric M | --error SIG|any] [--set K=V]...\n"
	      "                        [--junit F] [--markdown F]\n"
	      "       rmapbench bisect [GOOD BAD] --series DIR [--recipe NAME] --config FILE [...]\n"
	      "  the first commit of PATH's first-parent history GOOD..BAD whose run of FILE (in a guest,\n"
	      "  target vm) regresses against GOOD's on M (default: any metric), confirmed by a second run\n"
	      "  of it and its parent. With --series, the first patch of DIR/series (quilt's format) on\n"
	      "  recipe NAME (default minimal): GOOD and BAD are step numbers, step N the first N patches\n"
	      "  applied (default 0 and the last). --error: the first commit whose run shows kernel error\n"
	      "  signature SIG (or any GOOD does not show); a step is good after as many clean runs as BAD's\n"
	      "  rate of it asks for.\n"
	      "  Exit: 0 named, 1 an error, 2 usage or nothing to bisect, 130 interrupted.\n",
	      stderr);
	return 2;
}

int cmd_bisect(int argc, char **argv, const char *db_path)
{
	struct bisect_opts o = { 0 };
	const char *pos[2] = { NULL, NULL }, *sets[64];
	int npos = 0;
	const struct flag flags[] = {
		{ "--tree", FLAG_STRING, &o.tree, 0, 0, NULL },
		{ "--series", FLAG_STRING, &o.series, 0, 0, NULL },
		{ "--recipe", FLAG_STRING, &o.recipe, 0, 0, NULL },
		{ "--config", FLAG_STRING, &o.config, 0, 0, NULL },
		{ "--metric", FLAG_STRING, &o.metric, 0, 0, NULL },
		{ "--error", FLAG_STRING, &o.error, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, sets, 0, ARRAY_SIZE(sets), &o.nsets },
		{ "--junit", FLAG_STRING, &o.junit, 0, 0, NULL },
		{ "--markdown", FLAG_STRING, &o.markdown, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_help(argc, argv)) {
		usage();
		return 0;
	}
	if (flags_parse("bisect", flags, argc, argv, pos, 2, &npos) < 0 || !o.config || !o.tree == !o.series ||
	    (o.series ? npos == 1 : npos != 2) || (o.recipe && !o.series) || (o.error && o.metric))
		return usage();
	o.sets = sets;
	o.good = pos[0];
	o.bad = pos[1];
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 1;
	int rc = bisect_run(&o, &db);
	db_close(&db);
	return rc;
}
