/* `bisect` as a job (bisect.h):
 *
 *   bisect_begin    the range, GOOD's and BAD's runs, BAD regressed
 *   bisect_walk     a step at a time, nearest the middle, skipped ones kept
 *   bisect_confirm  the first bad commit and its parent once more, then named
 *   steps_figure    the metric along the steps (bisect_step.c)
 */
#include "bisect.h"
#include "bisect_step.h"
#include "config.h"
#include "kernel.h"
#include "signals.h"
#include "util.h"
#include "verdicts.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bisect itself, GOOD and BAD run: the first bad commit's index, or
 * -1 (with *rc) when it stopped. */
static int bisect_walk(struct bisect *b, int *rc)
{
	int lo = -1, hi = b->r.n - 1;
	for (;;) {
		int i = next_step(b, lo, hi);
		if (i < 0)
			break;
		const struct git_commit *c = &b->r.commits[i];
		printf("\nbisect: %d commit%s left between %.12s and %.12s: trying %.12s %s\n", hi - lo - 1,
		       hi - lo - 1 == 1 ? "" : "s",
		       lo < 0 ? b->r.good : b->r.commits[lo].hash, b->r.commits[hi].hash, c->hash, c->subject);
		int bad = step_judge(b, c->hash, "bisect", c->hash, &b->runs[i]);
		if (bad == -1) {
			b->state[i] = S_SKIP;
			continue;
		}
		if (bad < 0) {
			*rc = -bad;
			return -1;
		}
		b->state[i] = bad ? S_BAD : S_GOOD;
		printf("bisect: %.12s is %s\n", c->hash, bad ? "bad" : "good");
		if (bad)
			hi = i;
		else
			lo = i;
	}
	for (int i = lo + 1; i < hi; i++)
		if (b->state[i] == S_SKIP)
			printf("bisect: %.12s was skipped: the first bad commit may be it or any skipped before %.12s\n",
			       b->r.commits[i].hash, b->r.commits[hi].hash);
	return hi;
}

/* The range loaded, GOOD and BAD run, BAD regressed against GOOD: 0, or
 * the exit status having said why. */
static int bisect_begin(struct bisect *b, const struct bisect_opts *o)
{
	char err[600];
	if (git_range_load(b->tree, o->good, o->bad, &b->r, err, sizeof(err)) < 0) {
		rb_error("bisect: %s", err);
		return 2;
	}
	b->runs = calloc((size_t)b->r.n, sizeof(*b->runs));
	b->state = calloc((size_t)b->r.n, sizeof(*b->state));
	if (!b->runs || !b->state)
		abort();
	printf("bisect: %d commits from %.12s (good) to %.12s (bad) in %s, %s on %s\n", b->r.n, b->r.good, b->r.bad,
	       b->tree, o->config, b->metric ? b->metric : b->error ? "any kernel error" : "any metric");
	int s = step_run(b, b->r.good, "bisect", &b->good_run);
	if (!s)
		s = step_run(b, b->r.bad, "bisect", &b->runs[b->r.n - 1]);
	if (s) {
		if (s == 1)
			rb_error("bisect: GOOD or BAD could not be run: nothing to bisect from");
		return s == 1 ? 2 : s;
	}
	struct comparison cmp;
	struct side sa, sb;
	int bad = regressed(b, b->good_run, b->runs[b->r.n - 1], "GOOD", "BAD", &cmp, &sa, &sb);
	if (!bad) {
		verdicts_print(&cmp, &sa, &sb);
		printf("bisect: nothing to bisect: BAD shows no regression of %s against GOOD (rows above)\n",
		       b->metric ? b->metric : "any metric");
	}
	if (bad > 0 && b->error)
		error_tries(b, &cmp, b->runs[b->r.n - 1]);
	comparison_free(&cmp);
	if (bad <= 0)
		return bad < 0 ? 1 : 2;
	b->state[b->r.n - 1] = S_BAD;
	return 0;
}

/* The first bad commit and its parent (the last good one before it, GOOD
 * when none) run once more: named when the regression repeats. The exit
 * status; *named: it was. */
static int bisect_confirm(struct bisect *b, const struct bisect_opts *o, int first, bool *named)
{
	int parent = first - 1;
	while (parent >= 0 && b->state[parent] != S_GOOD)
		parent--;
	const struct git_commit *fc = &b->r.commits[first];
	const char *ph = parent < 0 ? b->r.good : b->r.commits[parent].hash;
	int64_t again[2];
	*named = false;
	printf("\nbisect: confirming: %.12s and its parent %.12s once more\n", fc->hash, ph);
	int s = step_run(b, ph, "bisect-confirm", &again[0]);
	if (!s && b->tries > 1) { /* an intermittent error: the parent clean as often as a step must be */
		int pb = step_judge(b, ph, "bisect-confirm", "parent", &again[0]);
		if (pb == 1) {
			printf("bisect: the parent %.12s showed it on a second look: not named\n", ph);
			return 2;
		}
		s = pb < 0 ? (pb == -1 ? 1 : -pb) : 0;
	}
	if (!s)
		s = step_run(b, fc->hash, "bisect-confirm", &again[1]);
	if (s)
		return s == 1 ? 1 : s;
	char la[64], lb[64];
	struct comparison cmp;
	struct side sa, sb;
	int rc = 0;
	snprintf(la, sizeof(la), "%.12s (parent)", ph);
	snprintf(lb, sizeof(lb), "%.12s (first bad)", fc->hash);
	int bad = regressed(b, again[0], again[1], la, lb, &cmp, &sa, &sb);
	if (bad > 0) {
		verdicts_print(&cmp, &sa, &sb);
		printf("\nbisect: the first bad commit: %s\n  %s\n  author date %s\n", fc->hash, fc->subject, fc->date);
		*named = true;
	} else if (!bad) {
		printf("bisect: %.12s did not regress against its parent on the second runs: not named\n", fc->hash);
		rc = 2;
	} else {
		rc = 1;
	}
	if (bad >= 0 && ((o->junit && verdicts_junit(o->junit, &cmp, &sa, &sb) < 0) ||
			 (o->markdown && verdicts_markdown(o->markdown, &cmp, &sa, &sb) < 0)))
		rc = 1;
	comparison_free(&cmp);
	return rc;
}

/* --series: the history series-tree.sh makes of DIR on the recipe into
 * tree, its steps' tags for GOOD and BAD (0 and the last when not given),
 * and the recipe's fragments for build-git.sh. 0, or 2 with the error
 * said. */
static int bisect_series(const char *dir, const char *recipe, const char *const *pos, int npos, char *tree,
			 size_t treelen, char good[32], char bad[32])
{
	/* step numbers first: nothing is unpacked for a bad one */
	long steps[2] = { 0, -1 };
	for (int i = 0; i < npos; i++) {
		char *end;
		errno = 0;
		steps[i] = strtol(pos[i], &end, 10);
		if (errno || end == pos[i] || *end || steps[i] < 0 || steps[i] > 1000) {
			rb_error("bisect: --series: '%s' is not a step number (0 to the series' length)", pos[i]);
			return 2;
		}
	}
	const char *args[] = { recipe, dir, NULL };
	char out[PATH_MAX + 512], err[600];
	if (kernel_script("series-tree.sh", args, out, sizeof(out), err, sizeof(err)) < 0) {
		rb_error("bisect: %s", err);
		return 2;
	}
	char *frag = strchr(out, '\n');
	if (frag)
		*frag++ = '\0';
	rb_trim(out);
	snprintf(tree, treelen, "%s", out);
	if (frag) {
		rb_trim(frag);
		if (setenv("RB_FRAGMENTS", frag, 1) < 0) {
			rb_error("bisect: setenv: %s", strerror(errno));
			return 2;
		}
	}
	if (npos == 2) {
		snprintf(good, 32, "step-%ld", steps[0]);
		snprintf(bad, 32, "step-%ld", steps[1]);
	} else {
		snprintf(good, 32, "step-0");
		snprintf(bad, 32, "HEAD"); /* the last step */
	}
	return 0;
}

int bisect_run(const struct bisect_opts *o, struct db *db)
{
	static struct bisect b;
	char err[600];
	memset(&b, 0, sizeof(b));
	b.tree = o->tree;
	b.metric = o->metric;
	b.db = db;
	b.tries = 1;
	if (o->error) {
		b.error = true;
		b.metric = NULL;
		if (strcmp(o->error, "any")) {
			snprintf(b.error_row, sizeof(b.error_row), "kernel_error: %s", o->error);
			b.metric = b.error_row;
		}
	}
	if (config_load_set(&b.cfg, o->config, o->sets, o->nsets, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&b.cfg);
		return 2;
	}
	struct bisect_opts series = *o;
	char tree[PATH_MAX], good[32], bad[32];
	if (o->series) {
		const char *pos[2] = { o->good, o->bad };
		int rc = bisect_series(o->series, o->recipe ? o->recipe : "minimal", pos, o->good ? 2 : 0, tree,
				       sizeof(tree), good, bad);
		if (rc) {
			config_free(&b.cfg);
			return rc;
		}
		series.tree = tree;
		series.good = good;
		series.bad = bad;
		b.tree = tree;
		o = &series;
	}
	rb_signals_install();
	int rc = bisect_begin(&b, o);
	int first = rc ? -1 : bisect_walk(&b, &rc);
	if (first >= 0) {
		bool named;
		rc = bisect_confirm(&b, o, first, &named);
		if (rc != 130)
			steps_figure(&b, named ? first : -1);
	}
	free(b.runs);
	free(b.state);
	free(b.r.commits);
	config_free(&b.cfg);
	return rc;
}
