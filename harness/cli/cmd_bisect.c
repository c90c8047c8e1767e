/* `rmapbench bisect GOOD BAD --tree PATH --config FILE [--metric M]
 * [--junit F] [--markdown F]`: the first commit of a git tree that made a
 * heavily forking load worse, as `git bisect` would find it with
 * compare's verdicts as the test. With `--series DIR [--recipe NAME]`
 * instead of --tree, the first patch of a quilt-style series: the series
 * becomes a git history over the recipe's source (kernels/series-tree.sh,
 * step N the first N patches) and is bisected the same way, GOOD and BAD
 * being step numbers (default 0 and the last).
 *
 *   GOOD and BAD run; BAD must regress against GOOD on M (else exit 2)
 *   bisect `git rev-list --first-parent GOOD..BAD`: each step built and
 *     run, judged against GOOD's run on its points done; one that does not
 *     build or has no point done is skipped, as `git bisect skip`
 *   the first bad commit and its parent run once more: the regression
 *     must repeat before the commit is named
 *
 * Each step is a run tagged "bisect" holding kernel=git:PATH@HASH in its
 * config text, so a bisect killed and started again reuses every step
 * it has. */
#include "commands.h"
#include "flags.h"
#include "git_range.h"
#include "kernel.h"
#include "query.h"
#include "record.h"
#include "report.h"
#include "signals.h"
#include "util.h"
#include "verdict.h"
#include "verdicts.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum step_state { S_UNKNOWN, S_GOOD, S_BAD, S_SKIP };

struct bisect {
	const char *tree, *config, *metric, *db_path;
	const char **sets;
	int nsets;
	char name[64];          /* the config's name: the steps' suite */
	struct db db;
	struct git_range r;
	int64_t good_run, *runs; /* runs[i]: commit i's step run, 0 none */
	enum step_state *state;
};

/* The run of commit hash with this tag: the one recorded, else a new one
 * (built, then run). 0 with *run; 1 the commit is to be skipped (said);
 * 130 interrupted; 2 the config is bad. */
static int step_run(struct bisect *b, const char *hash, const char *tag, int64_t *run)
{
	char spec[KERNEL_SPEC_MAX + 64], needle[KERNEL_SPEC_MAX + 80];
	snprintf(spec, sizeof(spec), "git:%s@%s", b->tree, hash);
	snprintf(needle, sizeof(needle), "kernel=%s", spec);
	*run = 0;
	if (db_run_find_tagged(&b->db, tag, b->name, needle, run) == 1) {
		printf("bisect: %.12s: run %lld (%s, recorded before)\n", hash, (long long)*run, tag);
		return 0;
	}
	fflush(stdout);
	db_close(&b->db);
	int rc = kernels_run_one(b->config, b->sets, b->nsets, spec, tag, b->db_path, run);
	if (db_open_said(b->db_path, &b->db) < 0)
		return 2;
	if (rc == 130 || rb_interrupted)
		return 130;
	if (rc == 2 && !*run)
		return 2;
	int done = *run ? db_run_points_done(&b->db, *run) : 0;
	if (!*run || done <= 0) {
		printf("bisect: %.12s: skipped: %s\n", hash,
		       !*run ? "it did not build or boot (above)" : "no point of its run was done (a guest panic or hang, above)");
		return 1;
	}
	/* a point lost to a guest that panicked at its end leaves the others:
	 * the verdicts count the points done */
	if (rc)
		printf("bisect: %.12s: run %lld, judged on its %d points done (the others failed, above)\n", hash,
		       (long long)*run, done);
	else
		printf("bisect: %.12s: run %lld\n", hash, (long long)*run);
	return 0;
}

/* B's run against A's on the metric (any regression when metric is
 * NULL): 1 regressed, 0 not, -1 an error; c filled and kept for output. */
static int regressed(struct bisect *b, int64_t a, int64_t run, const char *la, const char *lb, struct comparison *c,
		     struct side *sa, struct side *sb)
{
	*sa = (struct side){ .db = &b->db, .runs = { a }, .nruns = 1 };
	*sb = (struct side){ .db = &b->db, .runs = { run }, .nruns = 1 };
	snprintf(sa->label, sizeof(sa->label), "%s (run %lld)", la, (long long)a);
	snprintf(sb->label, sizeof(sb->label), "%s (run %lld)", lb, (long long)run);
	if (compare_sides(sa, sb, c) < 0)
		return -1;
	return b->metric ? comparison_regressed_on(c, b->metric) : c->counts[V_REGRESSION] > 0;
}

/* The next commit to try between lo and hi (exclusive), nearest the
 * middle and not skipped; -1 when none is left. */
static int next_step(const struct bisect *b, int lo, int hi)
{
	int mid = lo + (hi - lo) / 2;
	for (int d = 0; d < hi - lo; d++)
		for (int s = -1; s <= 1; s += 2) {
			int i = mid + s * d;
			if (i > lo && i < hi && b->state[i] != S_SKIP)
				return i;
		}
	return -1;
}

struct last_users {
	struct bisect_point *p;
	long users;
};

/* The row of the largest users: a bisect's config is mostly one point. */
static int last_users(void *arg, const struct db_users_stat *s)
{
	struct last_users *l = arg;
	if (s->users >= l->users) {
		l->users = s->users;
		l->p->mean = s->mean;
		l->p->min = s->min;
		l->p->max = s->max;
	}
	return 0;
}

/* The metric along the steps tried, GOOD first, in the tree's order, at
 * the config's largest users; the first bad commit marked. */
static void steps_figure(struct bisect *b, int first)
{
	const char *metric = b->metric ? b->metric : "jobs_per_min";
	struct bisect_point p[64];
	int n = 0, mark = -1;
	char name[64], dir[PATH_MAX], png[PATH_MAX + 40], shown[PATH_MAX + 80], title[200];
	for (int i = -1; i < b->r.n && n < (int)ARRAY_SIZE(p); i++) {
		int64_t run = i < 0 ? b->good_run : b->runs[i];
		if (!run)
			continue;
		struct last_users l = { &p[n], -1 };
		snprintf(p[n].commit, sizeof(p[n].commit), "%.12s", i < 0 ? b->r.good : b->r.commits[i].hash);
		if (db_metric_by_users(&b->db, run, metric, last_users, &l) < 0 || l.users < 0)
			continue;
		if (i == first)
			mark = n;
		n++;
	}
	snprintf(name, sizeof(name), "bisect-%.12s-%.12s", b->r.good, b->r.bad);
	snprintf(title, sizeof(title), "%s along the bisect, GOOD %.12s to BAD %.12s", metric, b->r.good, b->r.bad);
	if (results_dir(b->db_path, name, dir, sizeof(dir)) == 0 &&
	    report_bisect(p, n, mark, metric, title, dir, png, sizeof(png)) == 0)
		printf("figure: %s\n", rb_path_shown(png, shown, sizeof(shown)));
}

static int usage(void)
{
	fputs("usage: rmapbench bisect GOOD BAD --tree PATH --config FILE [--metric M] [--set K=V]...\n"
	      "                        [--junit F] [--markdown F]\n"
	      "       rmapbench bisect [GOOD BAD] --series DIR [--recipe NAME] --config FILE [...]\n"
	      "  the first commit of PATH's first-parent history GOOD..BAD whose run of FILE (in a guest,\n"
	      "  target vm) regresses against GOOD's on M (default: any metric), confirmed by a second run\n"
	      "  of it and its parent. With --series, the first patch of DIR/series (quilt's format) on\n"
	      "  recipe NAME (default minimal): GOOD and BAD are step numbers, step N the first N patches\n"
	      "  applied (default 0 and the last).\n"
	      "  Exit: 0 named, 1 an error, 2 usage or nothing to bisect, 130 interrupted.\n",
	      stderr);
	return 2;
}

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
		int s = step_run(b, c->hash, "bisect", &b->runs[i]);
		if (s == 1) {
			b->state[i] = S_SKIP;
			continue;
		}
		if (s) {
			*rc = s;
			return -1;
		}
		struct comparison cmp;
		struct side sa, sb;
		int bad = regressed(b, b->good_run, b->runs[i], "GOOD", c->hash, &cmp, &sa, &sb);
		comparison_free(&cmp);
		if (bad < 0) {
			*rc = 1;
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

/* --series: the history series-tree.sh made of DIR on the recipe, its
 * steps' tags for GOOD and BAD (0 and the last when not given), and the
 * recipe's fragments for build-git.sh. 0, or 2 with the error said. */
static int series_tree(const char *dir, const char *recipe, const char **pos, int npos, char *tree, size_t treelen,
		       char good[32], char bad[32])
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

int cmd_bisect(int argc, char **argv, const char *db_path)
{
	struct bisect b = { .db_path = db_path };
	const char *pos[2], *junit = NULL, *markdown = NULL, *sets[64], *series = NULL, *recipe = NULL;
	char series_path[PATH_MAX], step_good[32], step_bad[32];
	int npos = 0, rc = 0;
	const struct flag flags[] = {
		{ "--tree", FLAG_STRING, &b.tree, 0, 0, NULL },
		{ "--series", FLAG_STRING, &series, 0, 0, NULL },
		{ "--recipe", FLAG_STRING, &recipe, 0, 0, NULL },
		{ "--config", FLAG_STRING, &b.config, 0, 0, NULL },
		{ "--metric", FLAG_STRING, &b.metric, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, sets, 0, ARRAY_SIZE(sets), &b.nsets },
		{ "--junit", FLAG_STRING, &junit, 0, 0, NULL },
		{ "--markdown", FLAG_STRING, &markdown, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_help(argc, argv)) {
		usage();
		return 0;
	}
	if (flags_parse("bisect", flags, argc, argv, pos, 2, &npos) < 0 || !b.config || !b.tree == !series ||
	    (series ? npos == 1 : npos != 2) || (recipe && !series))
		return usage();
	b.sets = sets;
	struct config cfg;
	char err[600];
	if (config_load_set(&cfg, b.config, sets, b.nsets, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	snprintf(b.name, sizeof(b.name), "%s", cfg.name);
	config_free(&cfg);
	if (series) {
		if ((rc = series_tree(series, recipe ? recipe : "minimal", pos, npos, series_path, sizeof(series_path),
				      step_good, step_bad)))
			return rc;
		b.tree = series_path;
		pos[0] = step_good;
		pos[1] = step_bad;
	}
	if (git_range_load(b.tree, pos[0], pos[1], &b.r, err, sizeof(err)) < 0) {
		rb_error("bisect: %s", err);
		return 2;
	}
	b.runs = calloc((size_t)b.r.n, sizeof(*b.runs));
	b.state = calloc((size_t)b.r.n, sizeof(*b.state));
	if (!b.runs || !b.state)
		abort();
	if (db_open_said(db_path, &b.db) < 0) {
		rc = 1;
		goto out;
	}
	rb_signals_install();
	printf("bisect: %d commits from %.12s (good) to %.12s (bad) in %s, %s on %s\n", b.r.n, b.r.good, b.r.bad,
	       b.tree, b.config, b.metric ? b.metric : "any metric");
	int s = step_run(&b, b.r.good, "bisect", &b.good_run);
	if (!s)
		s = step_run(&b, b.r.bad, "bisect", &b.runs[b.r.n - 1]);
	if (s) {
		if (s == 1)
			rb_error("bisect: GOOD or BAD could not be run: nothing to bisect from");
		rc = s == 1 ? 2 : s;
		goto out;
	}
	struct comparison cmp;
	struct side sa, sb;
	int bad = regressed(&b, b.good_run, b.runs[b.r.n - 1], "GOOD", "BAD", &cmp, &sa, &sb);
	if (bad <= 0) {
		if (!bad) {
			verdicts_print(&cmp, &sa, &sb);
			printf("bisect: nothing to bisect: BAD shows no regression of %s against GOOD (rows above)\n",
			       b.metric ? b.metric : "any metric");
		}
		comparison_free(&cmp);
		rc = bad < 0 ? 1 : 2;
		goto out;
	}
	comparison_free(&cmp);
	b.state[b.r.n - 1] = S_BAD;
	int first = bisect_walk(&b, &rc);
	if (first < 0)
		goto out;
	/* the parent: the last good one before it (GOOD when none) */
	int parent = first - 1;
	while (parent >= 0 && b.state[parent] != S_GOOD)
		parent--;
	const struct git_commit *fc = &b.r.commits[first];
	const char *ph = parent < 0 ? b.r.good : b.r.commits[parent].hash;
	int64_t again[2];
	printf("\nbisect: confirming: %.12s and its parent %.12s once more\n", fc->hash, ph);
	s = step_run(&b, ph, "bisect-confirm", &again[0]);
	if (!s)
		s = step_run(&b, fc->hash, "bisect-confirm", &again[1]);
	if (s) {
		rc = s == 1 ? 1 : s;
		goto out;
	}
	char la[64], lb[64];
	snprintf(la, sizeof(la), "%.12s (parent)", ph);
	snprintf(lb, sizeof(lb), "%.12s (first bad)", fc->hash);
	bad = regressed(&b, again[0], again[1], la, lb, &cmp, &sa, &sb);
	if (bad > 0) {
		verdicts_print(&cmp, &sa, &sb);
		printf("\nbisect: the first bad commit: %s\n  %s\n  author date %s\n", fc->hash, fc->subject, fc->date);
	} else if (!bad) {
		printf("bisect: %.12s did not regress against its parent on the second runs: not named\n", fc->hash);
		rc = 2;
	} else {
		rc = 1;
	}
	if (bad >= 0 && ((junit && verdicts_junit(junit, &cmp, &sa, &sb) < 0) ||
			 (markdown && verdicts_markdown(markdown, &cmp, &sa, &sb) < 0)))
		rc = 1;
	comparison_free(&cmp);
	steps_figure(&b, bad > 0 ? first : -1);
out:
	if (b.db.h)
		db_close(&b.db);
	free(b.runs);
	free(b.state);
	free(b.r.commits);
	return rc;
}
