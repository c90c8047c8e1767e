/* `rmapbench calibrate-walk`: the running kernel's cost of an rmap walk
 * by the VMAs it visits (harness/run/walk_calib.c), recorded as a run and kept
 * in results/walk-calibration.tsv, where the engine target reads it. */
#include "commands.h"
#include "flags.h"
#include "sandbox.h"
#include "signals.h"
#include "util.h"
#include "walk_calib.h"

#include <stdio.h>
#include <string.h>

static int usage(const char *msg)
{
	if (msg)
		rb_error("%s", msg);
	struct walk_calib_plan d;
	walk_calib_default_plan(&d);
	fputs("usage: rmapbench calibrate-walk [--families N,N,...] [--pages P] [--slices S] [--repetitions R]\n"
	      "                                [--max-spread F]\n"
	      "  pages out P pages for each N, each mapped by the process forked after N others in one\n"
	      "  family whose VMAs its anon_vma holds, in S samples a round with the N taken in turn, timed\n"
	      "  by the walker's own CPU clock; keeps each N's low quantile (the machine's other work only\n"
	      "  adds to a sample): the walk's cost by its length, which the engine target charges.\n"
	      "  Refuses (exit 2) a calibration whose rounds' quantiles of one N differ by more than F\n"
	      "  of the lowest (default 0.35): it measured the machine's noise. Needs root (a swap\n"
	      "  file). A round is 16,000 forks with the defaults: minutes (docs/paper.md).\n"
	      "  defaults: --families ",
	      stderr);
	for (int i = 0; i < d.n_families; i++)
		fprintf(stderr, "%s%ld", i ? "," : "", d.families[i]);
	fprintf(stderr, " --pages %ld --slices %d --repetitions %d\n", d.pages, d.slices, d.repetitions);
	return 2;
}

int cmd_calibrate_walk(int argc, char **argv, const char *db_path)
{
	struct walk_calib_plan plan;
	walk_calib_default_plan(&plan);
	unsigned long fam[8], pages = (unsigned long)plan.pages, reps = (unsigned long)plan.repetitions,
			      slices = (unsigned long)plan.slices;
	int nfam = 0;
	bool help = false;
	const struct flag flags[] = {
		{ "--families", FLAG_ULIST, fam, 30000, ARRAY_SIZE(fam), &nfam },
		{ "--pages", FLAG_ULONG, &pages, 4096, 0, NULL },
		{ "--repetitions", FLAG_ULONG, &reps, 20, 0, NULL },
		{ "--slices", FLAG_ULONG, &slices, WALK_CALIB_MAX_SLICES, 0, NULL },
		{ "--max-spread", FLAG_DOUBLE, &plan.max_spread, 100, 0, NULL },
		{ "--help", FLAG_BOOL, &help, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	const char *pos[1];
	int npos;
	if (flags_parse("calibrate-walk", flags, argc, argv, pos, 0, &npos) < 0)
		return usage(NULL);
	if (help) {
		usage(NULL);
		return 0;
	}
	plan.pages = (long)(pages ? pages : 1);
	plan.repetitions = (int)(reps ? reps : 1);
	plan.slices = (int)(slices ? slices : 1);
	if (plan.pages % plan.slices) {
		rb_error("--pages %ld: not a multiple of --slices %d (each sample pages out as many)", plan.pages,
			 plan.slices);
		return 2;
	}
	for (int i = 0; i < nfam; i++)
		plan.families[i] = (long)fam[i];
	if (nfam)
		plan.n_families = nfam;
	if (plan.n_families < 2)
		return usage("--families: at least two family sizes, for a slope");
	for (int i = 0; i < plan.n_families; i++) /* one family serves them all: each N is a position in it */
		for (int j = 0; j < i; j++)
			if (plan.families[i] == plan.families[j]) {
				rb_error("--families: %ld is given twice", plan.families[i]);
				return 2;
			}
	for (int i = 0; i < plan.n_families; i++) /* the rest of the machine keeps its pids */
		if (plan.families[i] + 2 > sandbox_default_pids(plan.families[i])) {
			rb_error("--families: %ld processes would take the machine's pids (pid_max less 2048 is %ld)",
				 plan.families[i], sandbox_default_pids(plan.families[i]));
			return 2;
		}
	rb_signals_install();
	struct walk_calib c;
	int rc = walk_calib_keep(db_path, &plan, &c, stdout);
	return rc == -2 ? 2 : rc < 0 ? 1 : 0; /* 2: measured, and refused as noise */
}
