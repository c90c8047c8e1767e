/* `rmapbench bench [FILTER | --variant V]`: the microbenchmarks into the
 * database (bench_run.c does the work). */
#include "bench_run.h"
#include "engine.h"
#include "commands.h"
#include "flags.h"
#include "util.h"

#include <stdio.h>

int cmd_bench(int argc, char **argv, const char *db_path)
{
	const char *pos[1];
	struct bench_args a = { .repetitions = 5, .min_time_s = 0.05 };
	int npos;
	const struct flag flags[] = {
		{ "--repetitions", FLAG_ULONG, &a.repetitions, 1000, 0, NULL },
		{ "--min-time", FLAG_DOUBLE, &a.min_time_s, 3600, 0, NULL },
		{ "--variant", FLAG_STRING, &a.variant, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("bench", flags, argc, argv, pos, 1, &npos) < 0)
		return 2;
	if (!a.repetitions) {
		rb_error("bench: --repetitions 0: expected a positive integer");
		return 2;
	}
	if (npos && a.variant) {
		rb_error("bench: FILTER '%s' and --variant %s: give one (--variant runs the engine benchmarks of "
			 "one design)",
			 pos[0], a.variant);
		return 2;
	}
	if (a.variant && !rmap_ops_find(a.variant)) {
		rb_error("bench: --variant %s: not a design of the engine (rmapbench engine --help lists them)", a.variant);
		return 2;
	}
	if (npos)
		a.filter = pos[0];
	return bench_record(db_path, &a);
}
