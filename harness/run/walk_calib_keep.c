/* The walk calibration as the harness keeps it: measured beside the
 * database, recorded as a run of its own (target host), and written to
 * results/walk-calibration.tsv, where the engine target reads it. */
#include "run_here.h"
#include "util.h"
#include "walk_calib.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
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
	plan->slices = 8;
	plan->repetitions = 3;
	plan->swap_mib = 64;
	plan->timeout_s = 180; /* a round: the largest family's forks and every N's walks */
	plan->max_spread = WALK_CALIB_SPREAD_MAX;
}

/* What was measured, each N's quantile and range, the fit and the curve. */
static void say_measured(const struct walk_calib *c, FILE *out)
{
	long ns[WALK_CALIB_MAX_FAMILIES];
	double q[WALK_CALIB_MAX_FAMILIES];
	int m = walk_calib_quantiles(c, ns, q, WALK_CALIB_MAX_FAMILIES);
	for (int i = 0; i < m; i++) {
		double lo = HUGE_VAL, hi = 0;
		int k = 0;
		for (int j = 0; j < c->npts; j++)
			if (c->pts[j].n == ns[i]) {
				k++;
				lo = fmin(lo, c->pts[j].ns_per_page);
				hi = fmax(hi, c->pts[j].ns_per_page);
			}
		fprintf(out, "  N %5ld  %10.0f ns per page (quantile %g of %d samples; %.0f to %.0f)\n", ns[i], q[i],
			WALK_CALIB_QUANTILE, k, lo, hi);
	}
	fprintf(out, "one VMA visited: %.1f ns (fixed %.0f ns a page, r2 %.3f, %d samples) on %s\n", c->vma_ns,
		c->fixed_ns, c->r2, c->npts, c->release);
	if (c->ncurve)
		fprintf(out, "a walk's cost against its VMAs (each N's quantile, the page-out's part off):");
	for (int i = 0; i < c->ncurve; i++)
		fprintf(out, " %ld: %.0f ns (%.0f a VMA)%s", c->curve[i].n, c->curve[i].ns_per_page,
			c->curve[i].ns_per_page / (double)c->curve[i].n, i + 1 < c->ncurve ? "," : "\n");
}

/* 0 the calibration measured the walks, -2 the machine's noise (said). */
static int judge_noise(const struct walk_calib_plan *plan, const struct walk_calib *c, FILE *out)
{
	char err[600];
	if (walk_calib_check(c, err, sizeof(err)) < 0) { /* kept, the engine could not load or use it */
		rb_error("calibrate-walk: %s: the samples were the machine's noise, not the walks' cost; nothing is "
			 "kept: measure again on a quieter machine, or with more --repetitions",
			 err);
		return -2;
	}
	/* With the CPU clock and a low quantile, rounds of one N agree on a
	 * machine whose other work only preempts the walks; rounds that do
	 * not measured noise inside the walks themselves (cache and memory
	 * taken by others, a host's steal), and such a calibration is not
	 * kept. */
	long at;
	double spread = walk_calib_spread(c, &at);
	if (spread > plan->max_spread) {
		rb_error("calibrate-walk: the rounds' quantiles with %ld processes differ by %.1f%% (more than %.0f%%): "
			 "the machine's noise, not the walk's cost; nothing is kept",
			 at, 100 * spread, 100 * plan->max_spread);
		return -2;
	}
	fprintf(out, "spread: the rounds' quantiles differ by at most %.1f%% (N %ld; refused past %.0f%%)\n",
		100 * spread, at, 100 * plan->max_spread);
	return 0;
}

/* The samples and the fit as a run of their own (target host): 0 with
 * *run, or -1 said. */
static int record_run(const char *db_path, const struct walk_calib *c, const char *cmdline, int64_t *run)
{
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
	run_here_init(&here, "host", NULL, "calibrate-walk", cmdline);
	int rc = run_record(db_path, &here.m, p, c->npts + 1, NULL, run);
	for (int i = 0; i <= c->npts; i++)
		ss_free(&ss[i]);
	return rc ? -1 : 0;
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
	if (rb_mkdir_p(dir) < 0) { /* a fresh database's folder holds the swap file meanwhile */
		rb_error("calibrate-walk: %s: %s", dir, strerror(errno));
		return -1;
	}
	fprintf(out, "calibrate-walk: %d family sizes x %d repetitions, %ld pages each in %d samples\n",
		plan->n_families, plan->repetitions, plan->pages, plan->slices);
	fflush(out);
	if (walk_calibrate(dir, plan, c, err, sizeof(err)) < 0) {
		rb_error("calibrate-walk: %s", err);
		return -1;
	}
	say_measured(c, out);
	if (judge_noise(plan, c, out) < 0)
		return -2;
	char cmdline[300], measured[1200], when[32], fp[320];
	int64_t run;
	rb_utc_now(when, sizeof(when));
	machine_fingerprint(fp, sizeof(fp));
	snprintf(cmdline, sizeof(cmdline), "calibrate-walk families=%d pages=%ld slices=%d repetitions=%d",
		 plan->n_families, plan->pages, plan->slices, plan->repetitions);
	if (record_run(db_path, c, cmdline, &run) < 0)
		return -1;
	snprintf(measured, sizeof(measured), "%s on %s, as run %lld of %s: rmapbench %s", when, fp, (long long)run,
		 db_path, cmdline);
	if (results_path(db_path, WALK_CALIB_FILE, path, sizeof(path)) < 0) {
		rb_error("calibrate-walk: the folder of %s: %s", db_path, strerror(errno));
		return -1;
	}
	if (walk_calib_save(path, c, rb_revision(), measured, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return -1;
	}
	fprintf(out, "run %lld; kept in %s\n", (long long)run, path);
	return 0;
}

int walk_calib_kept(const char *db_path, struct walk_calib *c, char *path, size_t plen, char *why, size_t wlen)
{
	if (results_path(db_path, WALK_CALIB_FILE, path, plen) < 0) {
		snprintf(why, wlen, "no folder for it beside the database");
		return -1;
	}
	if (walk_calib_load(path, c, why, wlen) < 0)
		return -1;
	if (c->ncurve && c->others_mapped)
		return 0;
	snprintf(why, wlen, "%s %s", path,
		 !c->ncurve ? "has no curve: it predates walks charged by their length"
			    : "was measured with the other processes' ptes dropped, whose pte tables "
			      "a kernel since 6.14 frees: walks cheaper than 2.6.33's");
	return -1;
}
