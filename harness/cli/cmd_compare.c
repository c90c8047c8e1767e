/* `rmapbench compare A B`: verdicts between two runs, or two sets of runs,
 * from this database or others.
 *   A, B     RUN[,RUN...]; RUN is ID, last, last~N, or DB:ID (DB:last, ...)
 *            for a run of another database (opened read-only)
 * Exit status: 0 no regression, 1 at least one, 2 usage or data errors
 * (an unknown run, two sides with nothing in common). */
#include "commands.h"
#include "compare_runs.h"
#include "flags.h"
#include "util.h"

int cmd_compare(int argc, char **argv, const char *db_path)
{
	struct compare_opts o = { 0 };
	const char *pos[2];
	int npos;
	const struct flag flags[] = {
		{ "--junit", FLAG_STRING, &o.junit, 0, 0, NULL },
		{ "--markdown", FLAG_STRING, &o.markdown, 0, 0, NULL },
		{ "--crossover", FLAG_BOOL, &o.crossover, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("compare", flags, argc, argv, pos, 2, &npos) < 0)
		return 2;
	if (npos != 2) {
		rb_error("compare: expected two sides, A and B (RUN[,RUN...], RUN: ID, last, last~N or DB:ID)");
		return 2;
	}
	return compare_runs(db_path, pos[0], pos[1], &o);
}
