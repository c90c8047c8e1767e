/* `rmapbench calibrate-walk`: the running kernel's cost of one VMA visited
 * by an rmap walk (harness/run/walk_calib.c), recorded as a run and kept
 * in results/walk-calibration.tsv, where the engine target reads it. */
#include "commands.h"
#include "flags.h"
#include "record.h"
#include "signals.h"
#include "util.h"
#include "walk_calib.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int usage(const char *msg)
{
	if (msg)
		rb_error("%s", msg);
	fputs("usage: rmapbench calibrate-walk [--families N,N,...] [--pages P] [--repetitions R]\n"
	      "  pages out P pages, each mapped by the last of N+1 processes whose VMAs its anon_vma holds,\n"
	      "  and fits ns per page against N: the slope is one VMA's cost. Needs root (a swap file).\n"
	      "  defaults: --families 0,1000,2000,4000 --pages 256 --repetitions 3\n",
	      stderr);
	return 2;
}

int cmd_calibrate_walk(int argc, char **argv, const char *db_path)
{
	unsigned long fam[8], pages = 256, reps = 3;
	int nfam = 0;
	bool help = false;
	const struct flag flags[] = {
		{ "--families", FLAG_ULIST, fam, 8000, ARRAY_SIZE(fam), &nfam },
		{ "--pages", FLAG_ULONG, &pages, 4096, 0, NULL },
		{ "--repetitions", FLAG_ULONG, &reps, 20, 0, NULL },
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
	struct walk_calib_plan plan = { .pages = (long)(pages ? pages : 1), .repetitions = (int)(reps ? reps : 1),
					.swap_mib = 64, .timeout_s = 120 };
	static const long dflt[] = { 0, 1000, 2000, 4000 };
	for (int i = 0; i < (nfam ? nfam : 4); i++)
		plan.families[plan.n_families++] = nfam ? (long)fam[i] : dflt[i];
	if (plan.n_families < 2)
		return usage("--families: at least two family sizes, for a slope");
	if (geteuid() != 0) {
		rb_error("calibrate-walk needs root: a page-out writes to swap, and the swap file is switched on for it");
		return 1;
	}
	char dir[PATH_MAX], tmp[PATH_MAX], err[600];
	snprintf(tmp, sizeof(tmp), "%s", db_path);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	rb_signals_install();
	struct walk_calib c;
	printf("calibrate-walk: %d family sizes x %d repetitions, %ld pages each\n", plan.n_families, plan.repetitions,
	       plan.pages);
	fflush(stdout);
	if (walk_calibrate(dir, &plan, &c, err, sizeof(err)) < 0) {
		rb_error("calibrate-walk: %s", err);
		return 1;
	}
	for (int i = 0; i < c.npts; i++)
		printf("  N %5ld  %10.0f ns per page\n", c.pts[i].n, c.pts[i].ns_per_page);
	printf("one VMA visited: %.1f ns (fixed %.0f ns a page, r2 %.3f, %d points) on %s\n", c.vma_ns, c.fixed_ns, c.r2,
	       c.npts, c.release);

	struct sample_set ss[WALK_CALIB_MAX_POINTS + 1];
	struct recorded_point p[WALK_CALIB_MAX_POINTS + 1];
	memset(ss, 0, sizeof(ss));
	for (int i = 0; i < c.npts; i++) {
		ss_add(&ss[i], "ns_per_page", c.pts[i].ns_per_page, "ns");
		p[i] = (struct recorded_point){ "walk_pageout", c.pts[i].n, "MADV_PAGEOUT walk", &ss[i] };
	}
	ss_add(&ss[c.npts], "vma_ns", c.vma_ns, "ns");
	ss_add(&ss[c.npts], "fixed_ns", c.fixed_ns, "ns");
	ss_add(&ss[c.npts], "r2", c.r2, "ratio");
	p[c.npts] = (struct recorded_point){ "walk_fit", 0, "least squares of ns per page against N", &ss[c.npts] };
	struct run_here here;
	char cmdline[300];
	snprintf(cmdline, sizeof(cmdline), "calibrate-walk families=%d pages=%ld repetitions=%d", plan.n_families,
		 plan.pages, plan.repetitions);
	run_here_init(&here, "host", NULL, "calibrate-walk", cmdline);
	int64_t run;
	int rc = run_record(db_path, &here.m, p, c.npts + 1, NULL, &run);
	for (int i = 0; i <= c.npts; i++)
		ss_free(&ss[i]);
	char path[PATH_MAX];
	if (rc || results_path(db_path, WALK_CALIB_FILE, path, sizeof(path)) < 0 ||
	    walk_calib_save(path, &c, rb_revision(), err, sizeof(err)) < 0) {
		if (!rc)
			rb_error("%s", err);
		return 1;
	}
	printf("run %lld; kept in %s\n", (long long)run, path);
	return 0;
}
