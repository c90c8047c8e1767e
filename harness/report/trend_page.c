/* The trend page (trend_page.h):
 *
 *   draw_series     a series' data file and its SVG (plots/trend.gp)
 *   html_figures    the small multiples of a suite, each with what it is
 *   html_changes    every change point: nights either side, shift, revisions
 *   html_nights     every night: revision, kernel, config, verdict, flags
 */
#include "trend_page.h"
#include "escape.h"
#include "report_plot.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A hover text: gnuplot reads it as one quoted field of the data file
 * and draws it as text, so only characters that are neither quotes nor
 * backslashes nor markup reach it. */
static void hover_copy(char *out, size_t len, const char *in)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)in; *p && n + 1 < len; p++)
		out[n++] = (isalnum(*p) && *p < 0x80) || strchr(" ._:/,+=%()-", *p) ? (char)*p : '_';
	out[n] = 0;
}

static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "\t%.9g", v);
	else
		fputs("\tNaN", f);
}

static int write_series(const struct trend *t, const struct trend_series *s, const char *path)
{
	FILE *f = rb_create_stream(path);
	if (!f)
		return -1;
	fputs("# night median min max regression not-confirmed hover\n", f);
	for (int i = 0; i < t->nn; i++) {
		const struct trend_night *n = &t->nights[i];
		char raw[400], hover[400];
		snprintf(raw, sizeof(raw), "night %d, run %lld, %.10s, %s, %s, config %s%s", i + 1, (long long)n->run,
			 n->date, n->revision, n->kernel, n->config_hash,
			 s->flag[i] == 'r' ? ", REGRESSION" : s->flag[i] == 'n' ? ", not confirmed" : "");
		hover_copy(hover, sizeof(hover), raw);
		fprintf(f, "%d", i + 1);
		num(f, s->med[i]);
		num(f, s->lo[i]);
		num(f, s->hi[i]);
		num(f, s->flag[i] == 'r' ? s->med[i] : NAN);
		num(f, s->flag[i] == 'n' ? s->med[i] : NAN);
		fprintf(f, "\t\"%s\"\n", hover);
	}
	return fclose(f);
}

static void series_title(char *buf, size_t len, const struct trend_series *s)
{
	char wl[96], mt[96];
	hover_copy(wl, sizeof(wl), s->workload);
	hover_copy(mt, sizeof(mt), s->metric);
	snprintf(buf, len, "%s, %ld users: %s", wl, s->users, mt);
}

/* 0 with DIR/trend-K-I.svg drawn, -1 not. */
static int draw_series(const struct trend *t, int k, int i, const char *plotdir, const char *adir)
{
	const struct trend_series *s = &t->series[i];
	char data[PATH_MAX + 64], out[PATH_MAX + 64], cps[TREND_MAX_CPS * 16] = "", band[64] = "", title[240];
	snprintf(data, sizeof(data), "%s/trend-%d-%d.tsv", adir, k, i);
	snprintf(out, sizeof(out), "%s/trend-%d-%d", adir, k, i);
	if (write_series(t, s, data) < 0)
		return -1;
	for (int c = 0; c < s->ncps; c++)
		snprintf(cps + strlen(cps), sizeof(cps) - strlen(cps), "%s%.1f", c ? " " : "", s->cps[c].night + 0.5);
	if (isfinite(s->band_lo) && isfinite(s->band_hi))
		snprintf(band, sizeof(band), "%.9g %.9g", s->band_lo, s->band_hi);
	series_title(title, sizeof(title), s);
	return gnuplot(plotdir, "trend", data, out, "svg", cps, title, 0, band);
}

static void html_figures(FILE *f, const struct trend *t, int k, const char *plotdir, const char *adir)
{
	int shown = 0;
	fputs("<div class=\"grid\">\n", f);
	for (int i = 0; i < t->ns; i++) {
		const struct trend_series *s = &t->series[i];
		if (!trend_series_shown(s))
			continue;
		shown++;
		char title[240];
		series_title(title, sizeof(title), s);
		fputs("<figure>", f);
		if (plotdir && draw_series(t, k, i, plotdir, adir) == 0)
			fprintf(f, "<object type=\"image/svg+xml\" data=\"trend-%d-%d.svg\"></object>", k, i);
		else
			fputs("<p class=\"na\">no figure (gnuplot missing or failed)</p>", f);
		fputs("<figcaption>", f);
		html_write_escaped(f, title);
		fprintf(f, "%s%s%s</figcaption></figure>\n", s->headline ? " (headline)" : "",
			s->flagged ? ", flagged" : "", s->ncps ? ", changed" : "");
	}
	fputs("</div>\n", f);
	if (!shown)
		fputs("<p>No series to draw: none is a headline metric, none was flagged, none changed.</p>\n", f);
}

static void cell(FILE *f, const char *s)
{
	fputs("<td>", f);
	html_write_escaped(f, s);
	fputs("</td>", f);
}

static void html_changes(FILE *f, const struct trend *t)
{
	int n = 0;
	for (int i = 0; i < t->ns; i++)
		n += t->series[i].ncps;
	fprintf(f, "<h3>Change points: %d</h3>\n", n);
	if (!n) {
		fputs("<p>No change point in any series (E-Divisive means, Welch p &lt; 0.01, past the metric's floor "
		      "and three times its median move from night to night).</p>\n",
		      f);
		return;
	}
	fputs("<table><tr><th>kind</th><th>workload</th><th>users</th><th>metric</th><th>first night after</th><th>last night before</th>"
	      "<th>before</th><th>after</th><th>shift [95%]</th><th>p</th><th>revisions</th></tr>\n",
	      f);
	for (int i = 0; i < t->ns; i++) {
		const struct trend_series *s = &t->series[i];
		for (int c = 0; c < s->ncps; c++) {
			const struct trend_cp *x = &s->cps[c];
			const struct trend_night *a = &t->nights[x->prev], *b = &t->nights[x->night];
			char buf[300];
			fprintf(f, "<tr class=\"%s\">", x->kind == CP_REGRESSION ? "bad" : "");
			cell(f, trend_cp_name(x->kind));
			cell(f, s->workload);
			fprintf(f, "<td>%ld</td>", s->users);
			cell(f, s->metric);
			snprintf(buf, sizeof(buf), "%d (%.10s)", x->night + 1, b->date);
			cell(f, buf);
			snprintf(buf, sizeof(buf), "%d (%.10s)", x->prev + 1, a->date);
			cell(f, buf);
			fprintf(f, "<td>%.4g</td><td>%.4g</td><td>%+.1f%% [%+.1f, %+.1f]</td><td>%.2g</td>", x->cp.before,
				x->cp.after, 100 * x->rel, 100 * x->rel_lo, 100 * x->rel_hi, x->cp.p);
			snprintf(buf, sizeof(buf), "%s..%s", a->revision, b->revision);
			cell(f, buf);
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static void html_nights(FILE *f, const struct trend *t)
{
	fputs("<h3>Nights</h3>\n<table><tr><th>night</th><th>run</th><th>date</th><th>revision</th><th>kernel</th>"
	      "<th>config</th><th>status</th><th>verdict</th><th>flags</th><th>not confirmed</th>"
	      "<th>confirmation runs</th></tr>\n",
	      f);
	for (int i = 0; i < t->nn; i++) {
		const struct trend_night *n = &t->nights[i];
		bool changed = i > 0 && (strcmp(n->revision, t->nights[i - 1].revision) ||
					 strcmp(n->kernel, t->nights[i - 1].kernel) ||
					 strcmp(n->config_hash, t->nights[i - 1].config_hash));
		fprintf(f, "<tr class=\"%s\"><td>%d%s</td><td>%lld</td>", n->regressed ? "bad" : "", i + 1,
			n->baseline ? " (baseline)" : "", (long long)n->run);
		cell(f, n->date);
		cell(f, n->revision);
		cell(f, n->kernel);
		cell(f, n->config_hash);
		cell(f, n->status);
		fprintf(f, "<td>%s%s</td><td>%d</td><td>%d</td><td>%d</td></tr>\n",
			n->regressed ? "regressed" : n->flags ? "not confirmed" : "clean", changed ? " (changed)" : "",
			n->flags - n->not_confirmed, n->not_confirmed, n->confirm_runs);
	}
	fputs("</table>\n", f);
}

static void html_suite(FILE *f, const struct trend *t, int k, const char *plotdir, const char *adir)
{
	fputs("<h2>", f);
	html_write_escaped(f, t->suite);
	fprintf(f, ": %d nights</h2>\n<p class=\"fp\">machine: ", t->nn);
	html_write_escaped(f, t->fingerprint);
	if (t->baseline)
		fprintf(f, "; baseline: run %lld (%s), its spread shaded", (long long)t->baseline,
			t->pinned ? "pinned" : "the last clean night");
	fputs(". Each point is a night's median over its repetitions, the bar its min to max; a red triangle a "
	      "regression the night confirmed, an orange one a flag that did not repeat; a dashed line a change "
	      "point. Hover a night for its revision and kernel.</p>\n",
	      f);
	if (!t->nn)
		return;
	html_figures(f, t, k, plotdir, adir);
	html_changes(f, t);
	html_nights(f, t);
}

int trend_page(const struct trend *t, int nt, const char *dir, const char *title, char *path, size_t plen)
{
	char plotdir[PATH_MAX], prefix[PATH_MAX + 16], adir[PATH_MAX];
	bool draw = plot_begin(dir, "trend", plotdir, prefix, sizeof(prefix)) == 0;
	if (!abs_dir(dir, adir)) {
		rb_warn("%s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(path, plen, "%s/trend.html", dir);
	FILE *f = rb_create_stream(path);
	if (!f) {
		rb_warn("%s: %s", path, strerror(errno));
		path[0] = 0;
		return -1;
	}
	fputs("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>rmapbench trend</title>\n"
	      "<style>body{font-family:sans-serif;max-width:1400px;margin:2em auto;color:#222}"
	      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
	      "th{background:#f3f3f3}.bad{background:#fde2e2}.na{color:#999}.fp{color:#555;font-size:90%}"
	      ".grid{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0;border:1px solid #eee}"
	      "figcaption{font-size:85%;padding:2px 6px}object{width:440px;height:270px}"
	      "</style></head><body>\n<h1>",
	      f);
	html_write_escaped(f, title);
	fputs("</h1>\n", f);
	for (int k = 0; k < nt; k++)
		html_suite(f, &t[k], k, draw ? plotdir : NULL, adir);
	fputs("</body></html>\n", f);
	return fclose(f);
}
