/* `compare A B` as a job (compare_runs.h): sides parsed, each database
 * opened once, the verdicts and their outputs. */
#include "compare_runs.h"
#include "verdict_files.h"
#include "crossover_report.h"
#include "query.h"
#include "run_here.h"
#include "util.h"
#include "verdict.h"
#include "verdicts.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define MAX_DBS 8

struct dbs {
	struct db db[MAX_DBS];
	char path[MAX_DBS][1024];
	int n;
};

void crossover_report_runs(struct db *db, const int64_t runs[2], const char *labels[2])
{
	char dir[PATH_MAX], name[64];
	snprintf(name, sizeof(name), "compare-%lld-%lld", (long long)runs[0], (long long)runs[1]);
	crossover_report(db, results_dir(db->path, name, dir, sizeof(dir)) == 0 ? dir : NULL, runs, labels);
}

/* The database of a run spec: this one, or DB of "DB:RUN", opened once. */
static struct db *db_of(struct dbs *d, const char *path)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->path[i], path))
			return &d->db[i];
	if (d->n == MAX_DBS) {
		rb_error("compare: at most %d databases", MAX_DBS);
		return NULL;
	}
	char err[1200];
	if (db_open_readonly(path, &d->db[d->n], err, sizeof(err)) < 0) {
		rb_error("compare: %s", err);
		return NULL;
	}
	snprintf(d->path[d->n], sizeof(d->path[0]), "%s", path);
	return &d->db[d->n++];
}

static int parse_side(struct dbs *d, const char *home, const char *spec, struct side *s)
{
	char copy[2048];
	memset(s, 0, sizeof(*s));
	if (strlen(spec) >= sizeof(copy)) {
		rb_error("compare: a side of %zu characters: at most %zu", strlen(spec), sizeof(copy) - 1);
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s", spec);
	snprintf(s->label, sizeof(s->label), "%s", spec);
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(tok, ':');
		const char *path = home, *run = tok;
		if (colon) {
			*colon = 0;
			path = tok;
			run = colon + 1;
		}
		struct db *db = db_of(d, path);
		if (!db)
			return -1;
		if (s->db && s->db != db) {
			rb_error("compare: '%s': the runs of one side come from one database", spec);
			return -1;
		}
		s->db = db;
		if (s->nruns == SIDE_MAX_RUNS) {
			rb_error("compare: '%s': at most %d runs a side", spec, SIDE_MAX_RUNS);
			return -1;
		}
		int found = db_run_resolve(db, run, &s->runs[s->nruns]);
		if (found <= 0) {
			rb_error("compare: %s: no run '%s'%s", path, run, found < 0 ? " (the database could not be read)" : "");
			return -1;
		}
		/* a run pooled twice is its repetitions counted twice: a
		 * difference Mann-Whitney would find that is not there */
		for (int i = 0; i < s->nruns; i++)
			if (s->runs[i] == s->runs[s->nruns]) {
				rb_error("compare: '%s': run %lld is given twice", spec, (long long)s->runs[i]);
				return -1;
			}
		s->nruns++;
	}
	if (!s->nruns) {
		rb_error("compare: an empty side '%s'", spec);
		return -1;
	}
	return 0;
}

/* a vm run's kernel, else an engine run's design */
static int kernel_or_design(void *arg, const struct db_run *r)
{
	const char *v = r->kernel_label ? r->kernel_label : r->variant;
	snprintf(arg, 64, "%s", v ? v : "");
	return 0;
}

/* A word for a figure's legend: the run's kernel label or design if it is
 * a plain word, else "run-ID". */
static void run_label(struct db *db, int64_t run, char *buf, size_t len)
{
	char v[64] = "";
	db_run_get(db, run, kernel_or_design, v);
	if (rb_is_label(v) && strlen(v) < len)
		snprintf(buf, len, "%s", v);
	else
		snprintf(buf, len, "run-%lld", (long long)run);
}

/* The verdicts of two parsed sides, and what o asks for of them. */
static int judge(struct side *a, struct side *b, const struct compare_opts *o)
{
	struct comparison c;
	if (compare_sides(a, b, &c) < 0)
		return 2;
	int both = 0, rc;
	for (int i = 0; i < c.n; i++)
		both += c.rows[i].kind != V_ONLY_A && c.rows[i].kind != V_ONLY_B;
	if (!both) {
		rb_error("compare: %s and %s have no (workload, users, metric) in common", a->label, b->label);
		comparison_free(&c);
		return 2;
	}
	verdicts_print(&c, a, b);
	rc = c.counts[V_REGRESSION] ? 1 : 0;
	if (o->crossover && (a->nruns != 1 || b->nruns != 1 || a->db != b->db)) {
		rb_error("compare --crossover: one run a side, of one database");
		rc = 2;
	} else if (o->crossover) {
		int64_t runs[2] = { a->runs[0], b->runs[0] };
		char names[2][64];
		const char *labels[2] = { names[0], names[1] };
		for (int i = 0; i < 2; i++)
			run_label(a->db, runs[i], names[i], sizeof(names[i]));
		crossover_report_runs(a->db, runs, labels);
	}
	if (verdict_files("compare", o->junit, o->markdown, a->db, 0, 1, &c, a, b, NULL))
		rc = 2;
	comparison_free(&c);
	return rc;
}

int compare_runs(const char *db_path, const char *spec_a, const char *spec_b, const struct compare_opts *o)
{
	static struct dbs d;
	memset(&d, 0, sizeof(d));
	struct side a, b;
	int rc = 2;
	if (parse_side(&d, db_path, spec_a, &a) == 0 && parse_side(&d, db_path, spec_b, &b) == 0)
		rc = judge(&a, &b, o);
	for (int i = 0; i < d.n; i++)
		db_close(&d.db[i]);
	return rc;
}
