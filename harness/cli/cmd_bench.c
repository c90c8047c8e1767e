/* `rmapbench bench [FILTER]`: runs the microbenchmarks (rmapbench-bench,
 * Google Benchmark underneath), keeps the JSON file it wrote beside the
 * run, stores each benchmark's aggregates (mean, median, stddev, cv) as a
 * bench-target run, fits the engine's walk cost against N, and writes the
 * calibration file. The JSON is read with SQLite's own JSON functions. */
#include "commands.h"
#include "db.h"
#include "flags.h"
#include "query.h"
#include "paths.h"
#include "record.h"
#include "runlock.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The N of "engine/page_referenced/legacy/children:1000/manual_time". */
static long arg_of(const char *run_name)
{
	const char *c = strrchr(run_name, ':');
	return c ? strtol(c + 1, NULL, 10) : 0;
}

struct fitpt {
	char family[128];
	double n, ns;
};

/* One point per benchmark instance, its aggregates as metrics; the
 * engine's mean costs against N kept for the fits. */
struct import_state {
	struct db *db;
	int64_t run;
	const char *json_path, *version, *build, *now;
	char cur[256];
	struct sample_set ss;
	int seq, rc, nfit;
	struct fitpt fits[512];
	char *err;
	size_t elen;
};

static void flush_point(struct import_state *st)
{
	if (!st->cur[0])
		return;
	struct point_rec pr = { ++st->seq, st->cur, arg_of(st->cur), 1, st->cur, "done", NULL, st->now, st->now };
	ss_attr(&st->ss, "library_version", "%s", st->version);
	ss_attr(&st->ss, "library_build_type", "%s", st->build);
	ss_attr(&st->ss, "json", "%s", st->json_path);
	if (db_point_record(st->db, st->run, &pr, &st->ss, NULL, st->err, st->elen) < 0)
		st->rc = -1;
	ss_free(&st->ss);
}

static int import_row(void *arg, const struct gbench_row *r)
{
	struct import_state *st = arg;
	if (strcmp(r->run_name, st->cur)) {
		flush_point(st);
		snprintf(st->cur, sizeof(st->cur), "%s", r->run_name);
	}
	const char *agg = r->aggregate_name, *tunit = r->time_unit;
	bool pct = r->aggregate_unit && !strcmp(r->aggregate_unit, "percentage");
	char m[160];
	snprintf(m, sizeof(m), "real_time_%s", agg);
	ss_add(&st->ss, m, r->real_time, pct ? "ratio" : tunit);
	snprintf(m, sizeof(m), "cpu_time_%s", agg);
	ss_add(&st->ss, m, r->cpu_time, pct ? "ratio" : tunit);
	for (int i = 0; i < r->ncounters; i++) {
		snprintf(m, sizeof(m), "%s_%s", r->counters[i].key, agg);
		ss_add(&st->ss, m, r->counters[i].value, pct ? "ratio" : "counter");
	}
	/* the engine's costs against N, for the fits and the calibration */
	const char *colon = strrchr(r->run_name, ':');
	if (!strcmp(agg, "mean") && !strncmp(r->run_name, "engine/", 7) && colon && st->nfit < 512) {
		double scale = !strcmp(tunit, "us") ? 1e3 : !strcmp(tunit, "ms") ? 1e6 : !strcmp(tunit, "s") ? 1e9 : 1;
		struct fitpt *fp = &st->fits[st->nfit++];
		snprintf(fp->family, sizeof(fp->family), "%.*s", (int)(colon - r->run_name), r->run_name);
		char *slash = strrchr(fp->family, '/');
		if (slash)
			*slash = 0;
		fp->n = (double)arg_of(r->run_name);
		fp->ns = r->real_time * scale;
	}
	return 0;
}

/* Least squares of ns against n per family (engine/<op>/<variant>), with
 * weights 1/ns^2: n is log-spaced (1, 10, ..., 10000), so each point
 * counts by its relative error, not the largest alone. */
static void write_fits(struct import_state *st, const char *calib_path)
{
	FILE *cal = rb_create_stream(calib_path);
	if (cal)
		fprintf(cal, "# rmapbench calibration: the engine's cost per operation, ns = fixed + per_n x n\n"
			     "# (n: children for walks, fork depth for fork and exit); Google Benchmark %s (%s build)\n"
			     "# variant\toperation\tfixed_ns\tper_n_ns\tr2\tpoints\n",
			st->version, st->build);
	for (int i = 0; i < st->nfit; i++) {
		bool first = true;
		for (int j = 0; j < i; j++)
			first &= strcmp(st->fits[j].family, st->fits[i].family) != 0;
		if (!first)
			continue;
		double x[32], y[32], w[32];
		int k = 0;
		for (int j = i; j < st->nfit && k < 32; j++)
			if (!strcmp(st->fits[j].family, st->fits[i].family)) {
				x[k] = st->fits[j].n;
				y[k] = st->fits[j].ns;
				w[k] = y[k] > 0 ? 1.0 / (y[k] * y[k]) : 0;
				k++;
			}
		if (k < 2)
			continue;
		double slope, icept, r2;
		stats_wlinear(x, y, w, k, &slope, &icept, &r2);
		char point[200];
		snprintf(point, sizeof(point), "fit:%s", st->fits[i].family);
		ss_add(&st->ss, "per_n_ns", slope, "ns");
		ss_add(&st->ss, "fixed_ns", icept, "ns");
		ss_add(&st->ss, "r2", r2, "ratio");
		struct point_rec pr = { ++st->seq, point, 0, 1, "least squares of the mean time against n", "done", NULL,
					st->now, st->now };
		if (db_point_record(st->db, st->run, &pr, &st->ss, NULL, st->err, st->elen) < 0)
			st->rc = -1;
		ss_free(&st->ss);
		const char *op = st->fits[i].family + 7, *var = strrchr(st->fits[i].family, '/');
		printf("fit %-40s %10.3f ns + %8.3f ns x n  (weighted r2 %.3f, %d points)\n", st->fits[i].family, icept,
		       slope, r2, k);
		if (cal && var)
			fprintf(cal, "%s\t%.*s\t%.3f\t%.4f\t%.4f\t%d\n", var + 1, (int)(var - op), op, icept, slope, r2, k);
	}
	if (cal)
		fclose(cal);
}

static int import(struct db *db, int64_t run, const char *json_path, const char *calib_path, char *err, size_t elen)
{
	size_t len;
	char *json = rb_read_file(json_path, &len);
	if (!json) {
		snprintf(err, elen, "%s: %s", json_path, strerror(errno));
		return -1;
	}
	char version[64] = "unknown", build[32] = "unknown", now[32];
	if (db_gbench_context(db, json, len, version, sizeof(version), build, sizeof(build)) < 0) {
		snprintf(err, elen, "%s: not Google Benchmark JSON: %s", json_path, db_errmsg(db));
		free(json);
		return -1;
	}
	rb_utc_now(now, sizeof(now));
	static struct import_state st;
	memset(&st, 0, sizeof(st));
	st = (struct import_state){ .db = db, .run = run, .json_path = json_path, .version = version, .build = build,
				    .now = now, .err = err, .elen = elen };
	if (db_gbench_aggregates_each(db, json, len, import_row, &st) < 0) {
		snprintf(err, elen, "%s: %s", json_path, db_errmsg(db));
		st.rc = -1;
	}
	flush_point(&st);
	free(json);
	write_fits(&st, calib_path);
	return st.rc;
}

int cmd_bench(int argc, char **argv, const char *db_path)
{
	const char *filter = ".", *pos[1];
	unsigned long repetitions = 5;
	double min_time_s = 0.2;
	int npos;
	const struct flag flags[] = {
		{ "--repetitions", FLAG_ULONG, &repetitions, 1000, 0, NULL },
		{ "--min-time", FLAG_DOUBLE, &min_time_s, 3600, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("bench", flags, argc, argv, pos, 1, &npos) < 0)
		return 2;
	if (!repetitions) {
		rb_error("bench: --repetitions 0: expected a positive integer");
		return 2;
	}
	if (npos)
		filter = pos[0];
	char reps[32], min_time[32];
	snprintf(reps, sizeof(reps), "%lu", repetitions);
	snprintf(min_time, sizeof(min_time), "%g", min_time_s);
	char bin[PATH_MAX + 32], err[1200];
	if (rb_sibling_binary("RMAPBENCH_BENCH", "rmapbench-bench", bin, sizeof(bin)) < 0) {
		rb_error("the benchmark binary is missing (run 'make')");
		return 1;
	}
	if (run_lock_take(db_path, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return 1;
	}
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 1;
	char text[512];
	snprintf(text, sizeof(text), "bench filter=%s repetitions=%s min_time=%s", filter, reps, min_time);
	struct run_here here;
	run_here_init(&here, "bench", NULL, "bench", text);
	int64_t run;
	if (db_run_begin(&db, &here.m, &run, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		db_close(&db);
		return 1;
	}
	char dir[PATH_MAX], json[PATH_MAX + 96], calib[PATH_MAX + 96], latest[PATH_MAX + 96], name[32];
	snprintf(name, sizeof(name), "run-%lld", (long long)run);
	if (results_dir(db_path, name, dir, sizeof(dir)) < 0) {
		db_run_end(&db, run, "failed", "cannot create the run's directory");
		db_close(&db);
		return 1;
	}
	snprintf(json, sizeof(json), "%s/bench.json", dir);
	snprintf(calib, sizeof(calib), "%s/calibration.tsv", dir);
	unlink(json); /* Google Benchmark opens it by name */
	char a_filter[300], a_reps[64], a_min[64], a_out[PATH_MAX + 128];
	snprintf(a_filter, sizeof(a_filter), "--benchmark_filter=%s", filter);
	snprintf(a_reps, sizeof(a_reps), "--benchmark_repetitions=%s", reps);
	snprintf(a_min, sizeof(a_min), "--benchmark_min_time=%s", min_time);
	snprintf(a_out, sizeof(a_out), "--benchmark_out=%s", json);
	pid_t pid = fork();
	if (pid == 0) {
		execl(bin, bin, a_filter, a_reps, a_min, a_out, "--benchmark_out_format=json",
		      "--benchmark_report_aggregates_only=true", (char *)NULL);
		_exit(127);
	}
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		rb_error("%s exited with status %d", bin, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		db_run_end(&db, run, "failed", "the benchmark binary failed");
		db_close(&db);
		return 1;
	}
	int rc = import(&db, run, json, calib, err, sizeof(err));
	if (rc < 0)
		rb_error("%s", err);
	db_run_end(&db, run, rc < 0 ? "failed" : "done", NULL);
	db_close(&db);
	results_path(db_path, "calibration.tsv", latest, sizeof(latest));
	char *c = rb_read_file(calib, NULL);
	/* a run without engine benchmarks has no fits: keep the last calibration */
	const char *rows = c ? strstr(c, "points\n") : NULL;
	bool fits = rows && strchr(rows + 7, '\t');
	FILE *f = fits ? rb_create_stream(latest) : NULL;
	if (f) {
		fputs(c, f);
		fclose(f);
	}
	free(c);
	printf("run %lld: %s\njson: %s\ncalibration: %s\n", (long long)run, rc < 0 ? "failed" : "done", json, latest);
	return rc < 0 ? 1 : 0;
}
