/* The bottom layer: statistics against values computed by hand (and by R
 * for the t distribution), and the escaping writers against hostile text. */
#include "escape.h"
#include "sample.h"
#include "util.h"
#include "stats.h"
#include "timeline_attr.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void test_welch(void)
{
	const double a[] = { 1, 2, 3, 4 }, b[] = { 2, 3, 4, 5 };
	struct welch w;
	int rc = stats_welch(a, 4, b, 4, &w);
	CHECK(rc == 0, "welch: two samples of four");
	/* var 5/3 each: se = sqrt(2 * 5/12), t = 1 / se, df = 6 */
	CHECK(near(w.t, 1.0 / sqrt(10.0 / 12), 1e-12), "welch: t = %.6f", w.t);
	CHECK(near(w.df, 6, 1e-9), "welch: df = %.6f for equal variances and sizes", w.df);
	CHECK(near(w.p, 0.3153, 1e-3), "welch: two-sided p = %.5f (tables: t = 1.0954 at 6 df, about 0.315)", w.p);
	const double c[] = { 3, 3, 3 }, d[] = { 3, 3, 3 }, e[] = { 4, 4, 4 };
	CHECK(stats_welch(c, 3, d, 3, &w) == 0 && w.no_variance && w.p == 1, "welch: constant and equal: no variance, p 1");
	CHECK(stats_welch(c, 3, e, 3, &w) == 0 && w.no_variance && w.p == 0, "welch: constant and different: p 0");
	CHECK(stats_welch(a, 1, b, 4, &w) < 0, "welch: one value on a side is refused");
}

static void test_mann_whitney(void)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	double u = -1, p = -1;
	int rc = stats_mann_whitney(a, 3, b, 3, &u, &p);
	CHECK(rc == 0 && u == 0, "mann-whitney: U = %g for separated samples", u);
	/* exact: 1 of the C(6,3) = 20 orderings on each side */
	CHECK(near(p, 0.1, 1e-12), "mann-whitney: exact two-sided p = %g, the floor for n = 3 per side", p);
	rc = stats_mann_whitney(b, 3, a, 3, &u, &p);
	CHECK(rc == 0 && u == 9 && near(p, 0.1, 1e-12), "mann-whitney: symmetric (U = %g, p = %g)", u, p);
	const double c[] = { 1, 3, 5, 7 }, d[] = { 2, 4, 6, 8 };
	rc = stats_mann_whitney(c, 4, d, 4, &u, &p);
	CHECK(rc == 0 && u == 6, "mann-whitney: interleaved U = %g", u);
	/* U for 4 vs 4 takes 0..6 in 1+1+2+3+5+5+7 = 24 of the 70 orderings */
	CHECK(near(p, 48.0 / 70, 1e-12), "mann-whitney: exact p = %.6f (2 x 24/70)", p);
	double x[30], y[30];
	for (int i = 0; i < 30; i++)
		x[i] = y[i] = 7;
	rc = stats_mann_whitney(x, 30, y, 30, &u, &p);
	CHECK(rc == 0 && p == 1, "mann-whitney: all tied: p %g", p);
	for (int i = 0; i < 30; i++)
		x[i] = i, y[i] = i + 100;
	rc = stats_mann_whitney(x, 30, y, 30, &u, &p);
	CHECK(rc == 0 && u == 0 && p < 1e-9, "mann-whitney: normal approximation for 30 vs 30 separated: p = %g", p);
	/* the floor the exact test cannot pass: what it gave above for 3 a side */
	CHECK(near(stats_mann_whitney_min_p(3, 3), 0.1, 1e-12), "mann-whitney floor 3 a side: %g",
	      stats_mann_whitney_min_p(3, 3));
	CHECK(near(stats_mann_whitney_min_p(2, 2), 1.0 / 3, 1e-12), "mann-whitney floor 2 a side: %g",
	      stats_mann_whitney_min_p(2, 2));
	CHECK(near(stats_mann_whitney_min_p(5, 5), 2.0 / 252, 1e-12), "mann-whitney floor 5 a side: %g",
	      stats_mann_whitney_min_p(5, 5));
	CHECK(stats_mann_whitney_min_n(0.05) == 4, "mann-whitney: %d a side reach 0.05 (2/70)",
	      stats_mann_whitney_min_n(0.05));
}

static void test_hl_bh(void)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	double shift, lo, hi;
	int rc = stats_hodges_lehmann(a, 5, b, 5, 0.95, &shift, &lo, &hi);
	CHECK(rc == 0 && shift == 10, "hodges-lehmann: a shift of 10 is %g", shift);
	/* 5 vs 5 at 95%: P(U <= 2) = 4/252 < 0.025 < P(U <= 3) = 7/252, so the
	 * CI runs from the 3rd smallest difference to the 3rd largest; the 25
	 * differences are 6, 7 7, 8 8 8, ... 13 13, 14 */
	CHECK(lo == 7 && hi == 13, "hodges-lehmann: 95%% interval [%g, %g] (by hand: [7, 13])", lo, hi);
	const double c[] = { 1, 2, 3 }, d[] = { 4, 5, 6 };
	rc = stats_hodges_lehmann(c, 3, d, 3, 0.95, &shift, &lo, &hi);
	CHECK(rc == 0 && shift == 3 && lo == 1 && hi == 5,
	      "hodges-lehmann: 3 vs 3 cannot reach 95%%: the interval is every difference [%g, %g]", lo, hi);
	const double p[] = { 0.01, 0.04, 0.03, 0.5 };
	double q[4];
	stats_bh(p, 4, q);
	/* sorted 0.01 0.03 0.04 0.5 -> 0.04 0.053 0.053 0.5 */
	CHECK(near(q[0], 0.04, 1e-12) && near(q[2], 0.04 * 4 / 3, 1e-12) && near(q[1], 0.04 * 4 / 3, 1e-12) &&
		      near(q[3], 0.5, 1e-12),
	      "benjamini-hochberg q-values %g %g %g %g", q[0], q[1], q[2], q[3]);
}

static void test_wlinear(void)
{
	const double x[] = { 1, 10, 100, 1000 }, y[] = { 3, 21, 201, 2001 }, w[] = { 1, 1, 1, 1 };
	double slope, icept, r2;
	stats_wlinear(x, y, w, 4, &slope, &icept, &r2);
	CHECK(near(slope, 2, 1e-9) && near(icept, 1, 1e-6) && near(r2, 1, 1e-12),
	      "least squares: y = 2x + 1 exactly (slope %g, intercept %g, r2 %g)", slope, icept, r2);
	const double y2[] = { 2, 4, 3, 5 }, x2[] = { 1, 2, 3, 4 };
	stats_wlinear(x2, y2, w, 4, &slope, &icept, &r2);
	CHECK(near(slope, 0.8, 1e-12) && near(icept, 1.5, 1e-12) && near(r2, 0.64, 1e-12),
	      "least squares: slope 0.8, intercept 1.5, r2 0.64 (by hand)");
}

static char *written(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(f, s);
	fclose(f);
	return buf;
}

static void test_escape(void)
{
	char *j = written(json_write_string, "a\"b\\c\n\x01\x7f");
	CHECK(!strcmp(j, "\"a\\\"b\\\\c\\u000a\\u0001\\u007f\""), "json: quotes, backslashes and control bytes: %s", j);
	free(j);
	size_t nl;
	const char *gb = "{\"a\": NaN, \"b\": [Infinity,-Infinity], \"NaN\": \"x NaN \\\" NaN\", \"c\": NaNa}";
	char *clean = json_nonfinite_to_null(gb, strlen(gb), &nl);
	CHECK(clean && !strcmp(clean, "{\"a\": null, \"b\": [null,null], \"NaN\": \"x NaN \\\" NaN\", \"c\": nulla}") &&
		      nl == strlen(clean),
	      "json: NaN and the Infinities outside strings become null: %s", clean);
	free(clean);
	clean = json_nonfinite_to_null("NaN,NaN", 7, &nl);
	CHECK(clean && nl == 9 && !strcmp(clean, "null,null"), "json: room for every NaN: %s", clean);
	free(clean);
	clean = json_nonfinite_to_null("\"\\", 2, &nl);
	CHECK(clean && nl == 2, "json: a string cut off after a backslash is copied, not overrun");
	free(clean);
	CHECK(rb_is_label("legacy-anon-vma") && rb_is_label("6.1_rc") && !rb_is_label("") && !rb_is_label("../etc") &&
		      !rb_is_label("-x") && !rb_is_label("a b") && !rb_is_label("a/b"),
	      "labels: letters, digits, '.', '_', '-', not led by '.' or '-'");
	j = written(json_write_string, NULL);
	CHECK(!strcmp(j, "null"), "json: NULL is null");
	free(j);
	char *c = written(csv_write_field, "plain");
	CHECK(!strcmp(c, "plain"), "csv: plain stays plain");
	free(c);
	c = written(csv_write_field, "a,\"b\"\r");
	CHECK(!strcmp(c, "\"a,\"\"b\"\"\r\""), "csv: comma, quote and CR make it quoted, quotes doubled");
	free(c);
	char *h = written(html_write_escaped, "<img src=\"x\" onerror=a&b>");
	CHECK(!strcmp(h, "&lt;img src=&quot;x&quot; onerror=a&amp;b&gt;"), "html: %s", h);
	free(h);
	/* UTF-8: valid sequences pass whole, each invalid byte is one U+FFFD */
	CHECK(utf8_valid_len("\xc3\xa9") == 2 && utf8_valid_len("\xe2\x82\xac") == 3 &&
		      utf8_valid_len("\xf0\x9f\x98\x80") == 4 && !utf8_valid_len("\xc0\xaf") && !utf8_valid_len("\xed\xa0\x80") &&
		      !utf8_valid_len("\xf4\x90\x80\x80") && !utf8_valid_len("\xe2\x82") && !utf8_valid_len("\x80"),
	      "utf-8: two, three and four bytes; overlong, surrogate, past U+10FFFF, cut short and stray refused");
	j = written(json_write_string, "caf\xc3\xa9 \xff\xfe x");
	CHECK(!strcmp(j, "\"caf\xc3\xa9 \\ufffd\\ufffd x\""), "json: invalid UTF-8 as U+FFFD: %s", j);
	free(j);
	FILE *f = open_memstream(&j, &nl);
	json_write_number(f, 1.5);
	fputc(' ', f);
	json_write_number(f, 1.0 / 0.0);
	fputc(' ', f);
	json_write_number(f, 0.0 / 0.0);
	fclose(f);
	CHECK(!strcmp(j, "1.5 null null"), "json: inf and nan are null: %s", j);
	free(j);
	c = written(csv_write_field, "=HYPERLINK(\"x\")");
	CHECK(!strcmp(c, "\"'=HYPERLINK(\"\"x\"\")\""), "csv: a formula is led by a quote: %s", c);
	free(c);
	c = written(csv_write_field, "@SUM(A1)");
	CHECK(!strcmp(c, "\"'@SUM(A1)\""), "csv: @ too: %s", c);
	free(c);
	char t[64];
	term_safe_copy(t, sizeof(t), "a\x1b]0;title\x07" "b\xc2\x9b" "2Jc\xc3\xa9\xff");
	CHECK(!strcmp(t, "a?]0;title?b?2Jc\xc3\xa9?"), "terminal: ESC, BEL, C1 CSI and bad bytes as '?': %s", t);
	term_safe_copy(t, 4, "abc\xc3\xa9");
	CHECK(!strcmp(t, "abc"), "terminal: a sequence that does not fit is left out: %s", t);
}

/* the simulator's timeline, read back from a database: what it writes
 * parses; anything else is refused with the window it fails at */
static void test_timeline_attr(void)
{
	struct timeline_attr t;
	char err[200] = "";
	CHECK(timeline_attr_parse("1.840 100/0 97/0.5 0/99", &t, err, sizeof(err)) == 0 && t.n == 3 &&
		      near(t.step_s, 1.84, 1e-12) && t.sys_pct[1] == 97 && t.iowait_pct[1] == 0.5 && t.iowait_pct[2] == 99,
	      "timeline: three windows (%s)", err);
	CHECK(timeline_attr_parse("2", &t, err, sizeof(err)) == 0 && t.n == 0, "timeline: a step and no window");
	const char *bad[] = { "", " 1 1/1", "0 1/1", "-1 1/1", "nan 1/1", "1  1/1", "1 1/1 ", "1 101/0", "1 1/-0",
			      "1 1/1/1", "1 1", "1 /1", "1 1/", "1 inf/0", "1 1/1x", "1x 1/1", "1 +1/1", "1 0x10/1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(timeline_attr_parse(bad[i], &t, err, sizeof(err)) < 0, "timeline: '%s' refused: %s", bad[i], err);
	char many[1200] = "1";
	for (int i = 0; i <= TIMELINE_ATTR_MAX; i++)
		strcat(many, " 1/1");
	CHECK(timeline_attr_parse(many, &t, err, sizeof(err)) < 0 && strstr(err, "more than"),
	      "timeline: %d windows refused: %s", TIMELINE_ATTR_MAX + 1, err);
}

/* A kernel report in attribute chunks and back: newlines and
 * backslashes survive, no chunk is longer than an attribute holds, and
 * an escape is never cut between two chunks. */
static void test_attr_text(void)
{
	static char text[5000], back[5000];
	size_t n = 0;
	for (int line = 0; n + 80 < sizeof(text) - 1; line++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "line %d \\ of a report\n%s", line,
				      line % 7 ? "" : "\\\\\\\n");
	struct sample_set ss = { 0 };
	ss_attr_text(&ss, "kernel_error_1", text, sizeof(text));
	bool sized = ss.nattrs > 20;
	back[0] = 0;
	for (size_t i = 0; i < ss.nattrs; i++) {
		char key[48];
		snprintf(key, sizeof(key), "kernel_error_1_text_%zu", i + 1);
		sized = sized && !strcmp(ss.attrs[i].key, key) && strlen(ss.attrs[i].value) <= ATTR_TEXT_CHUNK &&
			!strchr(ss.attrs[i].value, '\n');
		attr_text_unescape(ss.attrs[i].value, back, sizeof(back));
	}
	CHECK(sized, "%zu chunks, numbered from 1, each at most %d bytes, none with a newline", ss.nattrs, ATTR_TEXT_CHUNK);
	CHECK(!strcmp(back, text), "the text comes back whole (%zu of %zu bytes)", strlen(back), strlen(text));
	char small[16] = "";
	attr_text_unescape(ss.attrs[0].value, small, sizeof(small));
	CHECK(strlen(small) == sizeof(small) - 1, "a short buffer is filled, never overrun");
	ss_free(&ss);
}

int main(void)
{
	test_attr_text();
	test_timeline_attr();
	test_welch();
	test_mann_whitney();
	test_hl_bh();
	test_wlinear();
	test_escape();
	return tap_done();
}
