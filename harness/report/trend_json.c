/* The trend as JSON (trend_page.h): {"check_nights": K, "suites": [{suite,
 * fingerprint, baseline, nights: [...], series: [{workload, users, metric,
 * unit, headline, median: [...], min, max, flags, band, change_points}]}]}.
 * A night a series has no value for is null. */
#include "trend_page.h"
#include "escape.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

static void key(FILE *f, const char *k, int first)
{
	fprintf(f, "%s\"%s\": ", first ? "" : ", ", k);
}

static void str_field(FILE *f, const char *k, const char *v, int first)
{
	key(f, k, first);
	json_write_string(f, v);
}

static void values(FILE *f, const char *k, const double *v, int n)
{
	key(f, k, 0);
	fputc('[', f);
	for (int i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		json_write_number(f, v[i]);
	}
	fputc(']', f);
}

static void night(FILE *f, const struct trend_night *n)
{
	fprintf(f, "{\"run\": %" PRId64, n->run);
	str_field(f, "date", n->date, 0);
	str_field(f, "revision", n->revision, 0);
	str_field(f, "kernel", n->kernel, 0);
	str_field(f, "config_hash", n->config_hash, 0);
	str_field(f, "status", n->status, 0);
	str_field(f, "verdict", n->regressed ? "regressed" : n->flags ? "not confirmed" : "clean", 0);
	fprintf(f, ", \"flags\": %d, \"not_confirmed\": %d, \"confirm_runs\": %d, \"baseline\": %s}", n->flags,
		n->not_confirmed, n->confirm_runs, n->baseline ? "true" : "false");
}

static void change(FILE *f, const struct trend *t, const struct trend_cp *c)
{
	fprintf(f, "{\"night\": %d, \"after_night\": %d", c->night + 1, c->prev + 1);
	str_field(f, "kind", trend_cp_name(c->kind), 0);
	str_field(f, "date", t->nights[c->night].date, 0);
	str_field(f, "revision_before", t->nights[c->prev].revision, 0);
	str_field(f, "revision_after", t->nights[c->night].revision, 0);
	key(f, "before", 0);
	json_write_number(f, c->cp.before);
	key(f, "after", 0);
	json_write_number(f, c->cp.after);
	key(f, "shift", 0);
	json_write_number(f, c->rel);
	key(f, "shift_lo", 0);
	json_write_number(f, c->rel_lo);
	key(f, "shift_hi", 0);
	json_write_number(f, c->rel_hi);
	key(f, "p", 0);
	json_write_number(f, c->cp.p);
	fputc('}', f);
}

static void series(FILE *f, const struct trend *t, const struct trend_series *s)
{
	fputc('{', f);
	str_field(f, "workload", s->workload, 1);
	fprintf(f, ", \"users\": %ld", s->users);
	str_field(f, "metric", s->metric, 0);
	str_field(f, "unit", s->unit, 0);
	fprintf(f, ", \"headline\": %s", s->headline ? "true" : "false");
	values(f, "median", s->med, t->nn);
	values(f, "min", s->lo, t->nn);
	values(f, "max", s->hi, t->nn);
	fputs(", \"flags\": [", f);
	for (int i = 0; i < t->nn; i++)
		fprintf(f, "%s%s", i ? ", " : "",
			s->flag[i] == 'r' ? "\"regression\"" : s->flag[i] == 'n' ? "\"not confirmed\"" : "null");
	fputs("], \"band\": ", f);
	if (isfinite(s->band_lo) && isfinite(s->band_hi))
		fprintf(f, "[%.9g, %.9g]", s->band_lo, s->band_hi);
	else
		fputs("null", f);
	fputs(", \"change_points\": [", f);
	for (int c = 0; c < s->ncps; c++) {
		if (c)
			fputs(", ", f);
		change(f, t, &s->cps[c]);
	}
	fputs("]}", f);
}

void trend_json(FILE *f, const struct trend *t, int nt, int check_nights)
{
	fprintf(f, "{\"check_nights\": %d, \"suites\": [", check_nights);
	for (int k = 0; k < nt; k++) {
		fputs(k ? ",\n{" : "\n{", f);
		str_field(f, "suite", t[k].suite, 1);
		str_field(f, "fingerprint", t[k].fingerprint, 0);
		fprintf(f, ", \"baseline\": %" PRId64 ", \"regressions_to_check\": %d, \"nights\": [", t[k].baseline,
			trend_check(&t[k], check_nights));
		for (int i = 0; i < t[k].nn; i++) {
			fputs(i ? ",\n  " : "\n  ", f);
			night(f, &t[k].nights[i]);
		}
		fputs("],\n \"series\": [", f);
		for (int i = 0; i < t[k].ns; i++) {
			fputs(i ? ",\n  " : "\n  ", f);
			series(f, &t[k], &t[k].series[i]);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
}
