/* Kernel errors in the HTML report: every signature a point recorded,
 * how many times, and its first report, escaped (a guest's log is
 * outside bytes). */
#include "report_klog.h"
#include "escape.h"
#include "kernel_errors.h"
#include "signatures.h"

#include <stdlib.h>

struct klog_html {
	FILE *f;
	struct db *db;
	int64_t run;
	int rows;
	char *text;
};

static void report_block(FILE *f, const char *summary_html, const char *text)
{
	fprintf(f, "<details><summary>%s</summary><pre>", summary_html);
	html_write_escaped(f, text);
	fputs("</pre></details>", f);
}

static int error_row(void *arg, const struct db_kernel_error *e)
{
	struct klog_html *h = arg;
	if (!h->rows++)
		fputs("<h2 class=\"bad\">Kernel errors</h2>\n<table><tr><th>point</th><th>workload</th><th>users</th>"
		      "<th>reports</th><th>signature and first report</th></tr>\n",
		      h->f);
	fprintf(h->f, "<tr class=\"bad\"><td>%d</td><td>", e->seq);
	html_write_escaped(h->f, e->workload);
	fprintf(h->f, "</td><td>%ld</td><td>%ld</td><td>", e->users, e->count);
	html_write_escaped(h->f, e->signature);
	if (db_kernel_error_text(h->db, h->run, e->seq, e->n, h->text, SIGNATURE_TEXT_MAX) == 1)
		report_block(h->f, "the first report", h->text);
	fputs("</td></tr>\n", h->f);
	return 0;
}

void html_kernel_errors(FILE *f, struct db *db, int64_t run)
{
	struct klog_html h = { f, db, run, 0, malloc(SIGNATURE_TEXT_MAX) };
	if (!h.text)
		abort();
	db_kernel_errors_each(db, run, error_row, &h);
	if (h.rows)
		fputs("</table>\n", f);
	free(h.text);
}

void html_verdict_reports(FILE *f, const struct comparison *c)
{
	for (int i = 0; i < c->n; i++) {
		const struct verdict_row *r = &c->rows[i];
		if (!r->text)
			continue;
		fprintf(f, "<h3%s>", r->kind == V_REGRESSION ? " class=\"bad\"" : "");
		html_write_escaped(f, r->metric);
		fprintf(f, " (%s, ", verdict_name(r->kind));
		html_write_escaped(f, r->workload);
		fprintf(f, " at %ld users)</h3>\n", r->users);
		report_block(f, "the first report", r->text);
		fputs("\n", f);
	}
}
