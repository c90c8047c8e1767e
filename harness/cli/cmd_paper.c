/* `rmapbench paper`: its flags, the designs it names, and the answer
 * printed; the runs and the figure are harness/jobs/paper.c. */
#include "commands.h"
#include "flags.h"
#include "paper.h"
#include "run_here.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static int usage(const char *msg)
{
	if (msg)
		rb_error("%s", msg);
	fputs("usage: rmapbench paper [--config FILE] [--set KEY=VALUE]... [--designs D,D] [--json] [--calibrate]\n"
	      "  runs the 2010 profile (default configs/paper-2010.conf) on the engine target for legacy,\n"
	      "  avc and modern; prints each crossover with sys%, iowait% and the anon_vma lock's wait\n"
	      "  share there, and draws the figure. Walks cost what the profile's walk_calibration says\n"
	      "  (a reference shipped with rmapbench, so the answer is the same on any machine).\n"
	      "  --calibrate measures this kernel's walk cost first (calibrate-walk, as root; exit 2 when\n"
	      "  it measured noise), runs the profile on it, runs it again on the\n"
	      "  reference, and prints how far this host's walk cost moves each crossing.\n"
	      "  --set changes the profile for every design (the README's sensitivity table).\n",
	      stderr);
	return 2;
}

/* --designs D,D: the whole names of the comma list, in the paper's order. */
static int pick_designs(const char *only, const char **designs)
{
	int nd = 0;
	for (int d = 0; d < PAPER_NDESIGNS; d++) {
		const char *p = only ? strstr(only, paper_designs[d]) : NULL;
		size_t l = strlen(paper_designs[d]);
		while (p && !((p == only || p[-1] == ',') && (p[l] == ',' || !p[l])))
			p = strstr(p + 1, paper_designs[d]);
		if (!only || p)
			designs[nd++] = paper_designs[d];
	}
	return nd;
}

int cmd_paper(int argc, char **argv, const char *db_path)
{
	static struct paper_result res;
	const char *sets[18], *only = NULL, *pos[1];
	struct paper_opts o = { .config = "configs/paper-2010.conf", .sets = sets };
	bool json = false, help = false;
	int npos;
	const struct flag flags[] = {
		{ "--designs", FLAG_STRING, &only, 0, 0, NULL },
		{ "--config", FLAG_STRING, &o.config, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, sets, 0, 15, &o.nsets },
		{ "--json", FLAG_BOOL, &json, 0, 0, NULL },
		{ "--calibrate", FLAG_BOOL, &o.calibrate, 0, 0, NULL },
		{ "--help", FLAG_BOOL, &help, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("paper", flags, argc, argv, pos, 0, &npos) < 0)
		return usage(NULL);
	if (help) {
		usage(NULL);
		return 0;
	}
	if (!(o.nd = pick_designs(only, o.designs)))
		return usage("--designs: none of legacy, avc, modern");
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 1;
	int rc = paper_run(&o, &db, &res);
	db_close(&db);
	if (rc)
		return rc;
	if (json) {
		paper_print_json(res.rows, o.designs, o.nd);
	} else {
		paper_print_table(res.rows, o.designs, o.nd);
		paper_print_split(res.rows, o.designs, o.nd);
		if (o.calibrate && res.reference[0])
			paper_print_shift(res.rows, res.ref, o.designs, o.nd, res.reference);
	}
	char shown[PATH_MAX + 80];
	if (res.figure[0])
		fprintf(json ? stderr : stdout, "figure: %s\n", rb_path_shown(res.figure, shown, sizeof(shown)));
	else
		rb_warn("paper: the figure could not be made (gnuplot?)");
	return 0;
}
