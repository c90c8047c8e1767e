/* A run's report: its figures (gnuplot, PNG and SVG) and its one-page
 * HTML, with the nightly's verdicts at the top when it has them. */
#include "report.h"
#include "report_klog.h"
#include "report_profile.h"
#include "verdicts.h"
#include "report_plot.h"
#include "crossover.h"
#include "escape.h"
#include "query.h"
#include "verdict.h"
#include "paths.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct figure {
	const char *metric, *title;
} figures[] = {
	{ "jobs_per_min", "jobs per minute against users" },
	{ "jobs_per_min_per_user", "AIM7 crossover: jobs per minute per user against users" },
	{ "sys_pct", "system time against users" },
	{ "lock_contentions", "lock contentions against users" },
	{ "lockstat_anon_vma_contentions", "anon_vma lock contentions against users" },
	{ "rmap_vmas_per_walk", "VMAs visited per rmap walk against users" },
};

static int write_data(struct db *db, int64_t run, const char *metric, const char *path, char *names, size_t nlen,
		      long *umin, long *umax)
{
	FILE *f = rb_create_stream(path);
	if (!f)
		return -1;
	fprintf(f, "# users mean min max n (%s)\n", metric);
	names[0] = 0;
	struct tsv t = { .f = f, .names = names, .nlen = nlen, .umin = umin, .umax = umax };
	int rc = db_metric_by_users(db, run, metric, tsv_row, &t);
	fclose(f);
	return rc < 0 ? -1 : t.rows;
}

static void unavailable_reason(struct db *db, int64_t run, const char *metric, char *buf, size_t len)
{
	db_unavailable_reason(db, run, metric, buf, len);
	if (!buf[0])
		snprintf(buf, len, "no completed point measured it");
}

struct meta_state {
	FILE *f;
	char *status;
	size_t slen;
};

static int html_meta_run(void *arg, const struct db_run *r)
{
	struct meta_state *m = arg;
	FILE *f = m->f;
	const char *cols[] = { "config_name", "status", "note", "target", "variant", "kernel_label", "host",
			       "kernel_release", "kernel_config_hash", "revision", "started_at", "ended_at" };
	const char *vals[] = { r->config_name, r->status, r->note, r->target, r->variant, r->kernel_label, r->host,
			       r->kernel_release, r->kernel_config_hash, r->revision, r->started_at, r->ended_at };
	snprintf(m->status, m->slen, "%s", r->status ? r->status : "");
	fprintf(f, "<h1>rmapbench run %lld: ", (long long)r->id);
	html_write_escaped(f, r->config_name);
	fprintf(f, "</h1>\n<table class=meta>\n<tr><th>id</th><td>%lld</td></tr>\n", (long long)r->id);
	for (int i = 0; i < (int)ARRAY_SIZE(cols); i++) {
		fprintf(f, "<tr><th>%s</th><td>", cols[i]);
		html_write_escaped(f, vals[i] ? vals[i] : "(none)");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<details><summary>config</summary><pre>", f);
	html_write_escaped(f, r->config_text);
	fputs("</pre></details>\n", f);
	return 0;
}

static void html_meta(FILE *f, struct db *db, int64_t run, char *status, size_t slen)
{
	struct meta_state m = { f, status, slen };
	db_run_get(db, run, html_meta_run, &m);
}

struct points_state {
	FILE *f;
	struct db *db;
	int64_t run;
};

static int html_point_row(void *arg, const struct db_group *g)
{
	struct points_state *p = arg;
	static const char *const cols[] = { "jobs_per_min", "forks_per_s", "sys_pct", "lock_contentions", "wall_s" };
	fputs("<tr><td>", p->f);
	html_write_escaped(p->f, g->workload);
	fprintf(p->f, "</td><td>%ld</td><td>%d/%d</td>", g->users, g->done, g->points);
	for (size_t c = 0; c < ARRAY_SIZE(cols); c++) {
		double v[256], sum = 0;
		int n = db_point_values(p->db, p->run, g->workload, g->users, cols[c], v, 256);
		for (int i = 0; i < n; i++)
			sum += v[i];
		if (n <= 0)
			fputs("<td class=na>n/a</td>", p->f);
		else
			fprintf(p->f, "<td>%.4g</td>", sum / n);
	}
	fputs("</tr>\n", p->f);
	return 0;
}

static void html_points(FILE *f, struct db *db, int64_t run)
{
	fputs("<h2>Points (means over done repetitions)</h2>\n<table><tr><th>workload</th><th>users</th>"
	      "<th>done/reps</th><th>jobs/min</th><th>forks/s</th><th>sys %</th><th>lock contentions</th>"
	      "<th>wall s</th></tr>\n",
	      f);
	struct points_state p = { f, db, run };
	db_groups_each(db, &run, 1, html_point_row, &p);
	fputs("</table>\n", f);
}

static void html_crossover(FILE *f, struct db *db, int64_t run)
{
	struct crossover c[16];
	int n = crossover_find(db, run, c, 16);
	if (n <= 0)
		return;
	fprintf(f, "<h2>AIM7 crossover</h2>\n<p>Where jobs per minute per user falls to %.0f or below (re-aim-7's "
		   "<code>-x</code>): 2.6.33 crossed near 9.7k users in 2010, the anon_vma_chain near 29.7k.</p>\n<ul>\n",
		CROSSOVER_JPM_PER_USER);
	for (int i = 0; i < n; i++) {
		char line[256];
		crossover_describe(&c[i], line, sizeof(line));
		fputs("<li>", f);
		html_write_escaped(f, line);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static int not_replay(void *arg, const struct db_metric_stats *m)
{
	bool *replay = arg;
	if (strncmp(m->workload, "replay:", 7))
		*replay = false;
	return 0;
}

/* A run of `rmapbench replay`: one point per design, no users axis. */
static bool run_is_replay(struct db *db, int64_t run)
{
	bool replay = true;
	return db_metric_stats_each(db, run, not_replay, &replay) == 0 && replay;
}

static int html_count_row(void *arg, const struct db_metric_stats *m)
{
	FILE *f = arg;
	fputs("<tr><td>", f);
	html_write_escaped(f, m->metric);
	fprintf(f, "</td><td>%.6g</td><td>", m->mean);
	html_write_escaped(f, m->unit);
	fputs("</td></tr>\n", f);
	return 0;
}

/* A replay's counts: every metric of its one point; the designs side by
 * side are replay's own figure and `compare`'s. */
static void html_replay_counts(FILE *f, struct db *db, int64_t run)
{
	fputs("<h2>The replay's counts</h2>\n<p>A recorded trace on one design: walks counted at the trace's peak "
	      "(and at its end, <code>end_*</code>). <code>rmapbench replay</code> draws the designs side by side; "
	      "<code>rmapbench compare</code> takes two of its runs.</p>\n<table><tr><th>metric</th><th>value</th>"
	      "<th>unit</th></tr>\n",
	      f);
	db_metric_stats_each(db, run, html_count_row, f);
	fputs("</table>\n", f);
}

static int html_unavailable_row(void *arg, const struct db_unavailable *u)
{
	FILE *f = arg;
	fputs("<tr><td>", f);
	html_write_escaped(f, u->metric);
	fputs("</td><td>", f);
	html_write_escaped(f, u->reason);
	fprintf(f, "</td><td>%d</td></tr>\n", u->points);
	return 0;
}

static void html_unavailable(FILE *f, struct db *db, int64_t run)
{
	fputs("<h2>Not measured on this machine</h2>\n<table><tr><th>metric</th><th>reason</th><th>points</th></tr>\n",
	      f);
	db_unavailable_each(db, run, html_unavailable_row, f);
	fputs("</table>\n", f);
}

/* The profile's largest moves, under the verdicts' table. */
static void html_movers(FILE *f, const struct comparison *c)
{
	int idx[12], n = verdicts_top_movers(c, idx, 12);
	if (!n)
		return;
	fputs("<h3>Where the time went</h3>\n<p>The children share of each function (the sampled busy time with "
	      "it on the stack), B against A, the largest moves first; the flame graphs are below.</p>\n"
	      "<table><tr><th>function</th><th>workload</th><th>users</th><th>A</th><th>B</th><th>move</th>"
	      "<th>verdict</th></tr>\n",
	      f);
	for (int k = 0; k < n; k++) {
		const struct verdict_row *r = &c->rows[idx[k]];
		fputs("<tr><td>", f);
		html_write_escaped(f, r->metric + 17);
		fputs("</td><td>", f);
		html_write_escaped(f, r->workload);
		fprintf(f, "</td><td>%ld</td><td>%.1f%%</td><td>%.1f%%</td><td>%+.1f pp</td><td>%s</td></tr>\n", r->users,
			r->median_a, r->median_b, r->median_b - r->median_a, verdict_name(r->kind));
	}
	fputs("</table>\n", f);
}

/* The verdicts of the nightly: what got worse first, then better, then
 * what changed; a count of the rest. */
static void html_verdicts(FILE *f, const struct comparison *c, const struct side *a, const struct side *b, int n)
{
	static const enum verdict_kind shown[] = { V_REGRESSION, V_NOT_CONFIRMED, V_IMPROVEMENT, V_CHANGED, V_ONLY_A,
						   V_ONLY_B };
	for (int k = 0; k < n; k++) {
		if (c[k].unjudged[0]) {
			fputs("<h2>Verdicts: not judged</h2>\n<p>", f);
			html_write_escaped(f, b[k].label);
			fputs(": ", f);
			html_write_escaped(f, c[k].unjudged);
			fputs(".</p>\n", f);
			continue;
		}
		if (c[k].expect[0]) {
			bool seen = comparison_regressed_on(&c[k], c[k].expect);
			fprintf(f, "<h2>Positive control: %d expected regressions</h2>\n<p%s>It %s regression of ",
				c[k].counts[V_REGRESSION], seen ? "" : " class=\"bad\"",
				seen ? "saw its" : "did not see the known");
			html_write_escaped(f, c[k].expect);
			fputs(". A = ", f);
		} else {
			fprintf(f, "<h2>Verdicts: %d regressions, %d improvements", c[k].counts[V_REGRESSION],
				c[k].counts[V_IMPROVEMENT]);
			if (c[k].counts[V_NOT_CONFIRMED])
				fprintf(f, ", %d not confirmed", c[k].counts[V_NOT_CONFIRMED]);
			fputs("</h2>\n<p>A = ", f);
		}
		html_write_escaped(f, a[k].label);
		fputs(", B = ", f);
		html_write_escaped(f, b[k].label);
		fputs("; change is B against A.</p>\n", f);
		int listed = 0;
		for (size_t o = 0; o < ARRAY_SIZE(shown); o++)
			listed += c[k].counts[shown[o]];
		if (!listed) {
			fprintf(f, "<p>Nothing got worse, better or changed: %d rows the same, %d too few repetitions to "
				   "test.</p>\n",
				c[k].counts[V_SAME], c[k].counts[V_TOO_FEW]);
			continue;
		}
		fputs("<table><tr><th>verdict</th><th>workload</th><th>users</th>"
		      "<th>metric</th><th>A</th><th>B</th><th>change</th><th>why</th></tr>\n",
		      f);
		for (size_t o = 0; o < ARRAY_SIZE(shown); o++)
			for (int i = 0; i < c[k].n; i++) {
				const struct verdict_row *r = &c[k].rows[i];
				if (r->kind != shown[o] || verdict_is_share(r))
					continue;
				fprintf(f, "<tr class=\"%s\"><td>%s</td><td>", r->kind == V_REGRESSION ? "bad" : "",
					verdict_name(r->kind));
				html_write_escaped(f, r->workload);
				fprintf(f, "</td><td>%ld</td><td>", r->users);
				html_write_escaped(f, r->metric);
				char ch[24];
				change_text(ch, sizeof(ch), r);
				fprintf(f, "</td><td>%.4g</td><td>%.4g</td><td>%s</td><td>", r->median_a, r->median_b, ch);
				html_write_escaped(f, r->note);
				fputs("</td></tr>\n", f);
			}
		fprintf(f, "</table>\n<p>%d rows the same, %d too few repetitions to test.</p>\n", c[k].counts[V_SAME],
			c[k].counts[V_TOO_FEW]);
		html_movers(f, &c[k]);
		html_verdict_reports(f, &c[k]);
	}
}

int report_generate(struct db *db, int64_t run, const char *dir, char *path, size_t plen)
{
	return report_generate_verdicts(db, run, dir, path, plen, NULL, NULL, NULL, 0, NULL);
}

struct drawn {
	bool ok;         /* its SVG and PNG were drawn */
	char title[200]; /* as drawn: at one users count, "at N users" */
};

/* Each figure's data and, with gnuplot, its SVG and PNG, into fig[i]; a
 * run at one users count has its workloads side by side
 * (plots/sidebyside.gp), never a users axis with one tick. 0, or -1 when
 * one could not be made (said). */
static int draw_figures(struct db *db, int64_t run, const char *adir, struct drawn *fig)
{
	char plotdir[PATH_MAX];
	int ok = 0, have_gnuplot = rb_have_program("gnuplot");
	if (rb_source_dir("RMAPBENCH_PLOTS", "plots", "common.gp", plotdir, sizeof(plotdir)) < 0) {
		rb_warn("gnuplot scripts not found at %s", plotdir);
		have_gnuplot = 0;
	}
	if (!have_gnuplot)
		rb_warn("gnuplot is not installed: the report has no figures (scripts/deps.sh installs it)");
	for (size_t i = 0; i < ARRAY_SIZE(figures); i++) {
		char data[PATH_MAX], out[PATH_MAX], names[512], unavail[300] = "";
		long umin = 0, umax = 0;
		fig[i].ok = false;
		snprintf(data, sizeof(data), "%s/%s.tsv", adir, figures[i].metric);
		snprintf(out, sizeof(out), "%s/%s", adir, figures[i].metric);
		int rows = write_data(db, run, figures[i].metric, data, names, sizeof(names), &umin, &umax);
		if (rows < 0) {
			rb_warn("%s: %s", data, strerror(errno));
			ok = -1;
			continue;
		}
		if (!rows) {
			unavailable_reason(db, run, figures[i].metric, unavail, sizeof(unavail));
			snprintf(names, sizeof(names), "none");
		}
		if (!have_gnuplot)
			continue;
		int logx = umin > 0 && umax / umin >= 20;
		const char *script = figures[i].metric;
		char *title = fig[i].title;
		snprintf(title, sizeof(fig[i].title), "%s", figures[i].title);
		if (rows > 0 && umin == umax) { /* one users count: the workloads side by side, no users axis */
			script = "sidebyside";
			snprintf(unavail, sizeof(unavail), "%ld", umin);
			char *against = strstr(title, " against users");
			if (against)
				snprintf(against, sizeof(fig[i].title) - (size_t)(against - title), " at %ld users", umin);
		}
		if (gnuplot_both(plotdir, script, data, out, names, title, logx, unavail) < 0) {
			rb_warn("gnuplot failed on %s", data);
			ok = -1;
			continue;
		}
		fig[i].ok = true;
	}
	return ok;
}

static void html_figures(FILE *f, const struct drawn *fig)
{
	fputs("<h2>Figures</h2>\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(figures); i++) {
		if (fig[i].ok)
			fprintf(f, "<figure><img src=\"%s.svg\" alt=\"%s\"><figcaption>%s (<a href=\"%s.png\">PNG</a>, "
				   "<a href=\"%s.tsv\">data</a>)</figcaption></figure>\n",
				figures[i].metric, fig[i].title, fig[i].title, figures[i].metric, figures[i].metric);
		else
			fprintf(f, "<p>%s: no figure (gnuplot missing or failed)</p>\n", figures[i].title);
	}
}

int report_generate_verdicts(struct db *db, int64_t run, const char *dir, char *path, size_t plen,
			     const struct comparison *cmp, const struct side *sa, const struct side *sb, int ncmp,
			     const char *trend_href)
{
	/* gnuplot is given absolute paths only (plots/figure.gp says why) */
	char adir[PATH_MAX];
	if (!abs_dir(dir, adir)) {
		rb_warn("%s: %s", dir, strerror(errno));
		path[0] = 0;
		return -1;
	}
	struct drawn fig[ARRAY_SIZE(figures)] = { 0 };
	bool replay = run_is_replay(db, run);
	int ok = replay ? 0 : draw_figures(db, run, adir, fig);
	snprintf(path, plen, "%s/report.html", dir);
	FILE *f = rb_create_stream(path);
	if (!f) {
		rb_warn("%s: %s", path, strerror(errno));
		path[0] = 0;
		return -1;
	}
	char status[32] = "";
	fputs("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>rmapbench report</title>\n"
	      "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}"
	      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
	      "text-align:left}th{background:#f3f3f3}.na{color:#999}.bad{background:#fde2e2}img{max-width:100%;border:1px solid #eee}"
	      "</style></head><body>\n",
	      f);
	html_meta(f, db, run, status, sizeof(status));
	if (trend_href) {
		fputs("<p><a id=\"trend\" href=\"", f);
		html_write_escaped(f, trend_href);
		fputs("\">The trend page</a>: this suite's nights, their change points and what each night changed.</p>\n",
		      f);
	}
	html_verdicts(f, cmp, sa, sb, ncmp);
	html_profile_diff(f, cmp, sa, sb, ncmp, adir);
	html_kernel_errors(f, db, run);
	if (replay)
		html_replay_counts(f, db, run);
	else
		html_figures(f, fig);
	html_crossover(f, db, run);
	html_profile(f, db, run, adir);
	if (!replay)
		html_points(f, db, run);
	html_unavailable(f, db, run);
	fputs("</body></html>\n", f);
	fclose(f);
	return ok;
}
