/* The walk calibration as the harness keeps it: measured beside the
 * database, recorded as a run of its own (target host), and written to
 * results/walk-calibration.tsv, where the engine target reads it. */
#include "record.h"
#include "util.h"
#include "walk_calib.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void walk_calib_default_plan(struct walk_calib_plan *plan)
{
	static const long families[] = { 0, 2000, 4000, 8000, 12000, 16000 };
	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; i < ARRAY_SIZE(families); i++)
		plan->families[plan->n_families++] = families[i];
	plan->pages = 64;
	plan->repetitions = 6;
	plan->swap_mib = 64;
	plan->timeout_s = 180; /* a round: the largest family's forks and every N's walks */
}

int walk_calib_keep(const char *db_path, const struct walk_calib_plan *plan, struct walk_calib *c, FILE *out)
{
	if (geteuid() != 0) {
		rb_error("measuring the walk cost needs root: a page-out writes to swap, and a swap file is switched on "
			 "for it");
		return -1;
	}
	char dir[PATH_MAX], tmp[PATH_MAX], err[600], path[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", db_path);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	fprintf(out, "calibrate-walk: %d family sizes x %d repetitions, %ld pages each\n", plan->n_families,
		plan->repetitions, plan->pages);
	fflush(out);
	if (walk_calibrate(dir, plan, c, err, sizeof(err)) < 0) {
		rb_error("calibrate-walk: %s", err);
		return -1;
	}
	for (int i = 0; i < c->npts; i++)
		fprintf(out, "  N %5ld  %10.0f ns per page\n", c->pts[i].n, c->pts[i].ns_per_page);
	fprintf(out, "one VMA visited: %.1f ns (fixed %.0f ns a page, r2 %.3f, %d points) on %s\n", c->vma_ns,
		c->fixed_ns, c->r2, c->npts, c->release);
	if (c->ncurve)
		fprintf(out, "a walk's cost against its VMAs (the rounds' trimmed mean, the page-out's part off):");
	for (int i = 0; i < c->ncurve; i++)
		fprintf(out, " %ld: %.0f ns (%.0f a VMA)%s", c->curve[i].n, c->curve[i].ns_per_page,
			c->curve[i].ns_per_page / (double)c->curve[i].n, i + 1 < c->ncurve ? "," : "\n");
	if (walk_calib_check(c, err, sizeof(err)) < 0) { /* kept, the engine could not load or use it */
		rb_error("calibrate-walk: %s: the rounds were the machine's noise, not the walks' cost (N %ld: %.0f ns a "
			 "page); nothing is kept: measure again on a quiet machine, with larger families or more "
			 "--repetitions",
			 err, c->npts ? c->pts[0].n : 0L, c->npts ? c->pts[0].ns_per_page : 0.0);
		return -1;
	}
	/* The line's r2 says little now that the cost per VMA grows with N;
	 * rounds of one N that disagree say the machine was not quiet. */
	long at;
	double spread = walk_calib_spread(c, &at);
	if (spread > WALK_CALIB_SPREAD_QUIET)
		fprintf(out, "calibrate-walk: the rounds with %ld processes differ by %.0f%% of their median: a busy "
			     "machine, or a VM's own noise (the README's machine: 2 to 7 times while quiet). The "
			     "trimmed means are kept; measure again to see how far they move\n",
			at, 100 * spread);

	struct sample_set ss[WALK_CALIB_MAX_POINTS + 1];
	struct recorded_point p[WALK_CALIB_MAX_POINTS + 1];
	memset(ss, 0, sizeof(ss));
	for (int i = 0; i < c->npts; i++) {
		ss_add(&ss[i], "ns_per_page", c->pts[i].ns_per_page, "ns");
		p[i] = (struct recorded_point){ "walk_pageout", c->pts[i].n, "MADV_PAGEOUT walk", &ss[i] };
	}
	ss_add(&ss[c->npts], "vma_ns", c->vma_ns, "ns");
	ss_add(&ss[c->npts], "fixed_ns", c->fixed_ns, "ns");
	ss_add(&ss[c->npts], "r2", c->r2, "ratio");
	p[c->npts] = (struct recorded_point){ "walk_fit", 0, "least squares of ns per page against N", &ss[c->npts] };
	struct run_here here;
	char cmdline[300];
	snprintf(cmdline, sizeof(cmdline), "calibrate-walk families=%d pages=%ld repetitions=%d", plan->n_families,
		 plan->pages, plan->repetitions);
	run_here_init(&here, "host", NULL, "calibrate-walk", cmdline);
	int64_t run;
	int rc = run_record(db_path, &here.m, p, c->npts + 1, NULL, &run);
	for (int i = 0; i <= c->npts; i++)
		ss_free(&ss[i]);
	if (rc || results_path(db_path, WALK_CALIB_FILE, path, sizeof(path)) < 0 ||
	    walk_calib_save(path, c, rb_revision(), err, sizeof(err)) < 0) {
		if (!rc)
			rb_error("%s", err);
		return -1;
	}
	fprintf(out, "run %lld; kept in %s\n", (long long)run, path);
	return 0;
}

int walk_calib_ensure(const char *db_path, struct walk_calib *c, char *path, size_t plen)
{
	char err[600];
	if (results_path(db_path, WALK_CALIB_FILE, path, plen) < 0)
		return -1;
	if (walk_calib_load(path, c, err, sizeof(err)) == 0) {
		if (c->ncurve && c->others_mapped)
			return 0;
		snprintf(err, sizeof(err), "%s %s", path,
			 !c->ncurve ? "has no curve: it predates walks charged by their length"
				    : "was measured with the other processes' ptes dropped, whose pte tables "
				      "a kernel since 6.14 frees: walks cheaper than 2.6.33's");
	}
	fprintf(stderr, "no walk calibration yet (%s): measuring the walk's cost on this kernel first\n", err);
	struct walk_calib_plan plan;
	walk_calib_default_plan(&plan);
	if (walk_calib_keep(db_path, &plan, c, stderr) < 0)
		return -1;
	return walk_calib_load(path, c, err, sizeof(err)) == 0 ? 0 : -1;
}
