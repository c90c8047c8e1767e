#include "verdicts.h"
#include "escape.h"
#include "metrics.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Regressions first, then improvements, changes, one-sided rows, untested
 * ones and the rest: what a reader must see comes first. */
static const enum verdict_kind order[] = { V_REGRESSION, V_NOT_CONFIRMED, V_IMPROVEMENT, V_CHANGED,
					   V_ONLY_A,     V_ONLY_B,        V_TOO_FEW,     V_SAME };

bool verdict_is_share(const struct verdict_row *r)
{
	return !strncmp(r->metric, "profile.", 8);
}

static double moved(const struct verdict_row *r)
{
	return fabs(r->median_b - r->median_a);
}

int verdicts_top_movers(const struct comparison *c, int *idx, int max)
{
	int n = 0;
	for (int i = 0; i < c->n; i++) {
		const struct verdict_row *r = &c->rows[i];
		if (strncmp(r->metric, "profile.children.", 17) || !r->na || !r->nb)
			continue;
		/* insertion: the list is short; full, r must beat its last */
		if (n == max && moved(r) <= moved(&c->rows[idx[max - 1]]))
			continue;
		int k = n < max ? n++ : max - 1;
		while (k > 0 && moved(&c->rows[idx[k - 1]]) < moved(r)) {
			idx[k] = idx[k - 1];
			k--;
		}
		idx[k] = i;
	}
	return n;
}

/* The top movers on a terminal, under the table. */
static void print_movers(const struct comparison *c)
{
	int idx[8], n = verdicts_top_movers(c, idx, 8);
	if (!n)
		return;
	printf("\nwhere the time went (children share of the sampled busy time, B against A):\n");
	for (int k = 0; k < n; k++) {
		const struct verdict_row *r = &c->rows[idx[k]];
		char wl[128], fn[128];
		term_safe_copy(wl, sizeof(wl), r->workload);
		term_safe_copy(fn, sizeof(fn), r->metric + 17);
		printf("  %-40s %5.1f%% -> %5.1f%% (%+.1f pp)  %s, %s at %ld users\n", fn, r->median_a, r->median_b,
		       r->median_b - r->median_a, verdict_name(r->kind), wl, r->users);
	}
}

void change_text(char *buf, size_t len, const struct verdict_row *r)
{
	if (r->na && r->nb && r->median_a != 0)
		snprintf(buf, len, "%+.1f%%", 100 * r->change);
	else
		snprintf(buf, len, "-"); /* from nothing, or only one side: no relative change */
}

static void fmt_value(char *buf, size_t len, double v, int n)
{
	if (n)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "-");
}

/* The drift of each benchmark time taken off before its rows were judged
 * (verdict.h), and whether it passed the floor: a change of every row alike
 * is said here and not as a verdict. */
static void drift_text(char *buf, size_t len, const struct drift *d)
{
	double floor = metric_rule(d->metric)->min_effect;
	bool past = d->ratio >= 1 + floor || d->ratio <= 1 / (1 + floor);
	snprintf(buf, len, "B's %s ran at x%.3g A's in every row alike (the median of %d rows), taken off before "
		 "each row was judged%s", d->metric, d->ratio, d->rows,
		 past ? ": past the floor, which the machine's speed and a change of every benchmark alike both "
			"explain" : "");
}

/* The kernel's own reports before any figure: a kernel that broke
 * matters more than how fast it was. Each signature row with its
 * report's first lines. */
static void print_errors(const struct comparison *c)
{
	int said = 0;
	for (size_t o = 0; o < ARRAY_SIZE(order); o++)
		for (int i = 0; i < c->n; i++) {
			const struct verdict_row *r = &c->rows[i];
			if (r->kind != order[o] || !r->decided)
				continue;
			char mt[256], note[256];
			term_safe_copy(mt, sizeof(mt), r->metric);
			term_safe_copy(note, sizeof(note), r->note);
			printf("%s%s: %s (%s)\n", said++ ? "" : "\nkernel errors:\n", verdict_name(r->kind), mt, note);
			const char *t = r->text;
			for (int line = 0; t && *t && line < 4; line++) {
				size_t n = strcspn(t, "\n");
				char l[200];
				snprintf(l, sizeof(l), "%.*s", (int)(n < sizeof(l) - 1 ? n : sizeof(l) - 1), t);
				term_safe_copy(mt, sizeof(mt), l);
				printf("    %s\n", mt);
				t += n + (t[n] == '\n');
			}
		}
}

static void print_rows(const struct comparison *c, const struct side *a, const struct side *b,
		       const enum verdict_kind *kinds, size_t nkinds)
{
	char la[160], lb[160];
	term_safe_copy(la, sizeof(la), a->label);
	term_safe_copy(lb, sizeof(lb), b->label);
	printf("A = %s, B = %s; change is B against A\n", la, lb);
	for (int k = 0; k < c->ndrift; k++) {
		char text[400];
		drift_text(text, sizeof(text), &c->drift[k]);
		printf("drift: %s\n", text);
	}
	print_errors(c);
	printf("\n");
	/* as wide as the longest workload shown (a benchmark's name is long), within reason */
	int w = 10, shown = 0;
	for (size_t o = 0; o < nkinds; o++)
		for (int i = 0; i < c->n; i++) {
			if (c->rows[i].kind != kinds[o] || verdict_is_share(&c->rows[i]))
				continue;
			int l = (int)strlen(c->rows[i].workload);
			w = l > w ? (l < 56 ? l : 56) : w;
			shown++;
		}
	if (shown)
		printf("%-12s %-*s %6s %-30s %12s %12s %8s  %s\n", "verdict", w, "workload", "users", "metric", "A", "B",
		       "change", "why");
	for (size_t o = 0; o < nkinds; o++)
		for (int i = 0; i < c->n; i++) {
			const struct verdict_row *r = &c->rows[i];
			if (r->kind != kinds[o] || verdict_is_share(r))
				continue;
			char va[24], vb[24], ch[24];
			fmt_value(va, sizeof(va), r->median_a, r->na);
			fmt_value(vb, sizeof(vb), r->median_b, r->nb);
			change_text(ch, sizeof(ch), r);
			char wl[256], mt[256], note[256];
			term_safe_copy(wl, sizeof(wl), r->workload);
			term_safe_copy(mt, sizeof(mt), r->metric);
			term_safe_copy(note, sizeof(note), r->note);
			printf("%-12s %-*.*s %6ld %-30.30s %12s %12s %8s  %s\n", verdict_name(r->kind), w, w, wl, r->users,
			       mt, va, vb, ch, note);
		}
	printf("%s%d regressions, %d improvements, %d changed, %d same, %d too few to test, %d only in A, %d only in B",
	       shown ? "\n" : "", c->counts[V_REGRESSION], c->counts[V_IMPROVEMENT], c->counts[V_CHANGED],
	       c->counts[V_SAME], c->counts[V_TOO_FEW], c->counts[V_ONLY_A], c->counts[V_ONLY_B]);
	if (c->counts[V_NOT_CONFIRMED])
		printf(", %d not confirmed", c->counts[V_NOT_CONFIRMED]);
	printf("\n");
	print_movers(c);
}

void verdicts_print(const struct comparison *c, const struct side *a, const struct side *b)
{
	print_rows(c, a, b, order, ARRAY_SIZE(order));
}

void verdicts_print_brief(const struct comparison *c, const struct side *a, const struct side *b)
{
	static const enum verdict_kind brief[] = { V_REGRESSION, V_NOT_CONFIRMED, V_IMPROVEMENT };
	print_rows(c, a, b, brief, ARRAY_SIZE(brief));
}

static void xml_escaped(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		size_t n = utf8_valid_len(s);
		if (!n) { /* a parser stops at a byte that is not UTF-8 */
			fputc('?', f);
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, n, f);
			s += n - 1;
			continue;
		}
		if (ch == '<')
			fputs("&lt;", f);
		else if (ch == '>')
			fputs("&gt;", f);
		else if (ch == '&')
			fputs("&amp;", f);
		else if (ch == '"')
			fputs("&quot;", f);
		else if (ch == '\'')
			fputs("&apos;", f);
		else if (ch < 0x20 && ch != '\t' && ch != '\n')
			fputc('?', f); /* not allowed in XML 1.0 at all */
		else
			fputc(ch, f);
	}
}

static void row_text(char *buf, size_t len, const struct verdict_row *r)
{
	snprintf(buf, len, "%s: %s at %ld users: A %.6g, B %.6g (%+.1f%%), %s%s", verdict_name(r->kind), r->metric,
		 r->users, r->median_a, r->median_b, 100 * r->change, r->exact ? "" : "p ", r->note);
}

/* A first night's part: what was recorded, and that nothing was judged. */
static void junit_unjudged(FILE *f, const struct comparison *c, const struct side *b)
{
	fputs("<testsuite name=\"", f);
	xml_escaped(f, b->label);
	fputs("\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n  <testcase classname=\"nightly\" "
	      "name=\"baseline\"><skipped message=\"",
	      f);
	xml_escaped(f, c->unjudged);
	fputs("\"/></testcase>\n</testsuite>\n", f);
}

static void junit_suite(FILE *f, const struct comparison *c, const struct side *a, const struct side *b)
{
	if (c->unjudged[0]) {
		junit_unjudged(f, c, b);
		return;
	}
	int compared = 0, control = c->expect[0] != 0;
	for (int i = 0; i < c->n; i++)
		compared += c->rows[i].kind != V_ONLY_A && c->rows[i].kind != V_ONLY_B && !verdict_is_share(&c->rows[i]);
	fputs("<testsuite name=\"", f);
	if (control)
		fputs("positive control: ", f);
	xml_escaped(f, a->label);
	fputs(" vs ", f);
	xml_escaped(f, b->label);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", compared + control,
		comparison_failures(c), c->counts[V_TOO_FEW] + c->counts[V_NOT_CONFIRMED]);
	if (control) {
		/* the one case that can fail: the known regression not seen */
		fputs("  <testcase classname=\"positive_control\" name=\"", f);
		xml_escaped(f, c->expect);
		fputs("\">", f);
		if (!comparison_regressed_on(c, c->expect)) {
			fputs("<failure message=\"the harness did not see the known regression of ", f);
			xml_escaped(f, c->expect);
			fputs("\"/>", f);
		}
		fputs("</testcase>\n", f);
	}
	for (int i = 0; i < c->n; i++) {
		const struct verdict_row *r = &c->rows[i];
		if (r->kind == V_ONLY_A || r->kind == V_ONLY_B || verdict_is_share(r))
			continue;
		char text[600];
		row_text(text, sizeof(text), r);
		fputs("  <testcase classname=\"", f);
		xml_escaped(f, r->workload);
		fprintf(f, ".users_%ld\" name=\"", r->users);
		xml_escaped(f, r->metric);
		fputs("\">", f);
		if (r->kind == V_REGRESSION && control) {
			fputs("<system-out>expected ", f);
			xml_escaped(f, text);
			fputs("</system-out>", f);
		} else if (r->kind == V_REGRESSION) {
			fputs("<failure message=\"", f);
			xml_escaped(f, text);
			fputs("\"/>", f);
		}
		if (r->text && r->kind != V_TOO_FEW) { /* the kernel's report, whole */
			fputs("<system-out>", f);
			xml_escaped(f, r->text);
			fputs("</system-out>", f);
		} else if (r->kind == V_TOO_FEW || r->kind == V_NOT_CONFIRMED) {
			fputs(r->kind == V_NOT_CONFIRMED ? "<skipped message=\"not confirmed: " : "<skipped message=\"", f);
			xml_escaped(f, r->note);
			fputs("\"/>", f);
		}
		fputs("</testcase>\n", f);
	}
	fputs("</testsuite>\n", f);
}

int verdicts_junit_n(const char *path, int n, const struct comparison *c, const struct side *a, const struct side *b)
{
	FILE *f = rb_create_stream(path);
	if (!f)
		return -1;
	int tests = 0, failures = 0;
	for (int k = 0; k < n; k++) {
		for (int i = 0; i < c[k].n; i++)
			tests += c[k].rows[i].kind != V_ONLY_A && c[k].rows[i].kind != V_ONLY_B &&
				 !verdict_is_share(&c[k].rows[i]);
		tests += c[k].unjudged[0] || c[k].expect[0];
		failures += comparison_failures(&c[k]);
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"rmapbench\" tests=\"%d\" "
		   "failures=\"%d\">\n",
		tests, failures);
	for (int k = 0; k < n; k++)
		junit_suite(f, &c[k], &a[k], &b[k]);
	fputs("</testsuites>\n", f);
	return fclose(f);
}

int verdicts_junit(const char *path, const struct comparison *c, const struct side *a, const struct side *b)
{
	return verdicts_junit_n(path, 1, c, a, b);
}

/* A table cell: no pipes, no line breaks, no HTML (a summary page renders
 * it), no terminal controls, whatever the database held. */
static void md_cell(FILE *f, const char *s)
{
	char safe[1024];
	term_safe_copy(safe, sizeof(safe), s);
	for (const char *p = safe; *p; p++) {
		if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p == '&')
			fputs("&amp;", f);
		else
			fputc(*p == '|' || *p == '`' ? ' ' : *p, f);
	}
}

/* Each kernel report, as an indented code block: Markdown renders
 * nothing inside one, and a line is made terminal-safe first. */
static void markdown_reports(FILE *f, const struct comparison *c)
{
	for (int i = 0; i < c->n; i++) {
		const struct verdict_row *r = &c->rows[i];
		if (!r->text)
			continue;
		fputs("**", f);
		md_cell(f, r->metric);
		fprintf(f, "** (%s, ", verdict_name(r->kind));
		md_cell(f, r->workload);
		fprintf(f, " at %ld users), the first report:\n\n", r->users);
		for (const char *t = r->text; *t;) {
			size_t n = strcspn(t, "\n");
			char l[600], safe[600];
			snprintf(l, sizeof(l), "%.*s", (int)(n < sizeof(l) - 1 ? n : sizeof(l) - 1), t);
			term_safe_copy(safe, sizeof(safe), l);
			fprintf(f, "    %s\n", safe);
			t += n + (t[n] == '\n');
		}
		fputs("\n", f);
	}
}

static void markdown_movers(FILE *f, const struct comparison *c)
{
	int idx[8], n = verdicts_top_movers(c, idx, 8);
	if (!n)
		return;
	fputs("Where the time went (children share of the sampled busy time):\n\n| function | workload | users | A | B "
	      "| move | verdict |\n| --- | --- | ---: | ---: | ---: | ---: | --- |\n",
	      f);
	for (int k = 0; k < n; k++) {
		const struct verdict_row *r = &c->rows[idx[k]];
		fputs("| ", f);
		md_cell(f, r->metric + 17);
		fputs(" | ", f);
		md_cell(f, r->workload);
		fprintf(f, " | %ld | %.1f%% | %.1f%% | %+.1f pp | %s |\n", r->users, r->median_a, r->median_b,
			r->median_b - r->median_a, verdict_name(r->kind));
	}
	fputs("\n", f);
}

static void markdown_section(FILE *f, const struct comparison *c, const struct side *a, const struct side *b)
{
	if (c->unjudged[0]) {
		fputs("## rmapbench: ", f);
		md_cell(f, b->label);
		fputs(", not judged\n\n", f);
		md_cell(f, c->unjudged);
		fputs(".\n\n", f);
		return;
	}
	if (c->expect[0]) {
		bool seen = comparison_regressed_on(c, c->expect);
		fprintf(f, "## rmapbench: positive control, %d expected regressions; %s regression of ",
			c->counts[V_REGRESSION], seen ? "saw its" : "**did not see** the known");
		md_cell(f, c->expect);
		fputs("\n\nA = ", f);
	} else {
		fprintf(f, "## rmapbench: %d regressions, %d improvements", c->counts[V_REGRESSION],
			c->counts[V_IMPROVEMENT]);
		if (c->counts[V_NOT_CONFIRMED])
			fprintf(f, ", %d not confirmed (run again, they did not repeat)", c->counts[V_NOT_CONFIRMED]);
		fputs("\n\nA = ", f);
	}
	md_cell(f, a->label);
	fputs(", B = ", f);
	md_cell(f, b->label);
	fputs("; change is B against A.\n\n", f);
	for (int k = 0; k < c->ndrift; k++) {
		char text[400];
		drift_text(text, sizeof(text), &c->drift[k]);
		fprintf(f, "Drift: %s.\n\n", text);
	}
	fputs("| verdict | workload | users | metric | A | B | change | why |\n| --- | --- | ---: | --- | ---: | ---: | ---: | --- |\n", f);
	for (size_t o = 0; o < ARRAY_SIZE(order); o++)
		for (int i = 0; i < c->n; i++) {
			const struct verdict_row *r = &c->rows[i];
			if (r->kind != order[o] || r->kind == V_SAME || verdict_is_share(r))
				continue;
			fprintf(f, "| %s | ", verdict_name(r->kind));
			md_cell(f, r->workload);
			fprintf(f, " | %ld | ", r->users);
			md_cell(f, r->metric);
			char ch[24];
			change_text(ch, sizeof(ch), r);
			fprintf(f, " | %.4g | %.4g | %s | ", r->median_a, r->median_b, ch);
			md_cell(f, r->note);
			fputs(" |\n", f);
		}
	fprintf(f, "\n%d rows the same, %d too few to test, %d only in A, %d only in B.\n\n", c->counts[V_SAME],
		c->counts[V_TOO_FEW], c->counts[V_ONLY_A], c->counts[V_ONLY_B]);
	markdown_movers(f, c);
	markdown_reports(f, c);
}

int verdicts_markdown_n(const char *path, int n, const struct comparison *c, const struct side *a,
			const struct side *b)
{
	FILE *f = rb_create_stream(path);
	if (!f)
		return -1;
	for (int k = 0; k < n; k++)
		markdown_section(f, &c[k], &a[k], &b[k]);
	return fclose(f);
}

int verdicts_markdown(const char *path, const struct comparison *c, const struct side *a, const struct side *b)
{
	return verdicts_markdown_n(path, 1, c, a, b);
}
