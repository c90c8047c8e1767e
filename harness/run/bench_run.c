/* A recorded run of the microbenchmarks: runs rmapbench-bench, keeps the
 * JSON file it wrote beside the run, stores each benchmark's repetitions
 * as points (real_time, cpu_time and every counter: the samples the
 * verdicts test), fits the engine's walk cost against N, and writes the
 * calibration file. The JSON is read with SQLite's own JSON functions;
 * Google Benchmark's aggregates stay in it. */
#include "bench_run.h"
#include "db.h"
#include "escape.h"
#include "paths.h"
#include "query.h"
#include "run_here.h"
#include "runlock.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
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

#define MAX_FITS 512

static double ns_per(const char *unit)
{
	return !unit ? 1 : !strcmp(unit, "us") ? 1e3 : !strcmp(unit, "ms") ? 1e6 : !strcmp(unit, "s") ? 1e9 : 1;
}

/* The mean time of one (family, N) over its repetitions. */
struct fitpt {
	char family[128]; /* engine/<op>/<variant> */
	double n, ns_sum;
	int reps;
};

struct import_state {
	struct db *db;
	int64_t run;
	const char *json_path, *version, *build, *now, *variant;
	int seq, rc, nfit;
	struct fitpt fits[MAX_FITS];
	char *err;
	size_t elen;
};

/* "engine/<op>/<variant>/<args>" less "/<variant>" when the run is of one
 * design: the run says which. */
static void point_name(const struct import_state *st, const char *run_name, char *out, size_t len)
{
	char cut[80];
	snprintf(cut, sizeof(cut), "/%s/", st->variant ? st->variant : "");
	const char *at = st->variant && !strncmp(run_name, "engine/", 7) ? strstr(run_name + 7, cut) : NULL;
	if (at)
		snprintf(out, len, "%.*s%s", (int)(at - run_name), run_name, at + strlen(cut) - 1);
	else
		snprintf(out, len, "%s", run_name);
}

static void note_fit(struct import_state *st, const struct gbench_row *r)
{
	const char *colon = strrchr(r->run_name, ':');
	if (strncmp(r->run_name, "engine/", 7) || !colon || r->error)
		return;
	char family[128];
	snprintf(family, sizeof(family), "%.*s", (int)(colon - r->run_name), r->run_name);
	char *slash = strrchr(family, '/');
	if (slash)
		*slash = 0;
	double n = (double)arg_of(r->run_name), ns = r->real_time * ns_per(r->time_unit);
	for (int i = 0; i < st->nfit; i++)
		if (st->fits[i].n == n && !strcmp(st->fits[i].family, family)) {
			st->fits[i].ns_sum += ns;
			st->fits[i].reps++;
			return;
		}
	if (st->nfit == MAX_FITS)
		return;
	struct fitpt *fp = &st->fits[st->nfit++];
	snprintf(fp->family, sizeof(fp->family), "%s", family);
	fp->n = n;
	fp->ns_sum = ns;
	fp->reps = 1;
}

/* One point per repetition of each benchmark instance. */
static int import_row(void *arg, const struct gbench_row *r)
{
	struct import_state *st = arg;
	if (r->aggregate)
		return 0;
	note_fit(st, r);
	char name[256];
	point_name(st, r->run_name, name, sizeof(name));
	struct sample_set ss = { 0 };
	if (!r->error) {
		ss_add(&ss, "real_time", r->real_time, r->time_unit);
		ss_add(&ss, "cpu_time", r->cpu_time, r->time_unit);
		for (int i = 0; i < r->ncounters; i++)
			ss_add(&ss, r->counters[i].key, r->counters[i].value, "counter");
	}
	ss_attr(&ss, "benchmark", "%s", r->run_name);
	ss_attr(&ss, "library_version", "%s", st->version);
	ss_attr(&ss, "library_build_type", "%s", st->build);
	char shown[PATH_MAX + 96];
	ss_attr(&ss, "json", "%s", rb_path_shown(st->json_path, shown, sizeof(shown)));
	struct point_rec pr = { ++st->seq,
				name,
				arg_of(r->run_name),
				r->repetition + 1,
				r->run_name,
				r->error ? "failed" : "done",
				r->error ? (r->error_message ? r->error_message : "the benchmark reported an error") : NULL,
				st->now,
				st->now };
	if (db_point_record(st->db, st->run, &pr, &ss, NULL, st->err, st->elen) < 0)
		st->rc = -1;
	ss_free(&ss);
	return st->rc < 0;
}

/* Least squares of the mean ns against n per family, with weights
 * 1/ns^2: n is log-spaced (1, 10, ..., 10000), so each point counts by its
 * relative error, not the largest alone. */
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
				y[k] = st->fits[j].ns_sum / st->fits[j].reps;
				w[k] = y[k] > 0 ? 1.0 / (y[k] * y[k]) : 0;
				k++;
			}
		if (k < 2)
			continue;
		double slope, icept, r2;
		stats_wlinear(x, y, w, k, &slope, &icept, &r2);
		char point[200], slashed[160];
		snprintf(slashed, sizeof(slashed), "%s/", st->fits[i].family);
		point_name(st, slashed, point + 4, sizeof(point) - 4);
		memcpy(point, "fit:", 4);
		point[strlen(point) - 1] = 0; /* the slash */
		struct sample_set ss = { 0 };
		ss_add(&ss, "per_n_ns", slope, "ns");
		ss_add(&ss, "fixed_ns", icept, "ns");
		ss_add(&ss, "r2", r2, "ratio");
		struct point_rec pr = { ++st->seq, point, 0, 1, "least squares of the mean time against n", "done", NULL,
					st->now, st->now };
		if (db_point_record(st->db, st->run, &pr, &ss, NULL, st->err, st->elen) < 0)
			st->rc = -1;
		ss_free(&ss);
		const char *op = st->fits[i].family + 7, *var = strrchr(st->fits[i].family, '/');
		printf("fit %-40s %10.3f ns + %8.3f ns x n  (weighted r2 %.3f, %d points)\n", st->fits[i].family, icept,
		       slope, r2, k);
		if (cal && var)
			fprintf(cal, "%s\t%.*s\t%.3f\t%.4f\t%.4f\t%d\n", var + 1, (int)(var - op), op, icept, slope, r2, k);
	}
	if (cal)
		fclose(cal);
}

static int import(struct db *db, int64_t run, const char *variant, const char *json_path, const char *calib_path,
		  char *err, size_t elen)
{
	size_t raw_len, len;
	char *raw = rb_read_file(json_path, &raw_len);
	if (!raw) {
		snprintf(err, elen, "%s: %s", json_path, strerror(errno));
		return -1;
	}
	char *json = json_nonfinite_to_null(raw, raw_len, &len);
	free(raw);
	if (!json) {
		snprintf(err, elen, "%s: out of memory", json_path);
		return -1;
	}
	char version[64] = "unknown", build[32] = "unknown", now[32];
	if (db_gbench_context(db, json, len, version, sizeof(version), build, sizeof(build)) < 0) {
		snprintf(err, elen, "%s: not Google Benchmark JSON: %s", json_path, db_errmsg(db));
		free(json);
		return -1;
	}
	rb_utc_now(now, sizeof(now));
	static struct import_state st; /* the fits are large for a stack */
	st = (struct import_state){ .db = db, .run = run, .json_path = json_path, .version = version, .build = build,
				    .now = now, .variant = variant, .err = err, .elen = elen };
	if (db_gbench_rows_each(db, json, len, import_row, &st) < 0 && st.rc == 0) {
		snprintf(err, elen, "%s: %s", json_path, db_errmsg(db));
		st.rc = -1;
	}
	free(json);
	write_fits(&st, calib_path);
	return st.rc;
}

/* Runs the binary; 0 when it exited 0. */
static int run_binary(const char *bin, const struct bench_args *a, const char *json, const char *table)
{
	int table_fd = a->quiet ? rb_create_file(table, 0644) : -1;
	char filter[300], reps[64], min_time[64], out[PATH_MAX + 128];
	if (a->variant) /* the name's "/avc/" is not "/avc-rc/" */
		snprintf(filter, sizeof(filter), "--benchmark_filter=^engine/[^/]+/%s/", a->variant);
	else
		snprintf(filter, sizeof(filter), "--benchmark_filter=%s", a->filter ? a->filter : ".");
	snprintf(reps, sizeof(reps), "--benchmark_repetitions=%lu", a->repetitions);
	snprintf(min_time, sizeof(min_time), "--benchmark_min_time=%g", a->min_time_s);
	snprintf(out, sizeof(out), "--benchmark_out=%s", json);
	pid_t pid = fork();
	if (pid == 0) {
		if (table_fd >= 0)
			dup2(table_fd, STDOUT_FILENO);
		/* Interleaved, a benchmark's repetitions are spread over the
		 * whole run: a slow few seconds of a shared machine (CI once
		 * flagged a 30% "regression" an A/A night later) falls on one
		 * or two of them, not on all, and Mann-Whitney shrugs it off. */
		execl(bin, bin, filter, reps, min_time, out, "--benchmark_out_format=json",
		      "--benchmark_display_aggregates_only=true", "--benchmark_enable_random_interleaving=true",
		      (char *)NULL);
		_exit(127);
	}
	if (table_fd >= 0)
		close(table_fd);
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	rb_error("%s exited with status %d", bin, pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return -1;
}

/* The run's calibration becomes the latest one, unless it has no fits (a
 * run without engine benchmarks keeps the last). */
static void keep_calibration(const char *db_path, const char *calib, char *latest, size_t len)
{
	results_path(db_path, "calibration.tsv", latest, len);
	char *c = rb_read_file(calib, NULL);
	const char *rows = c ? strstr(c, "points\n") : NULL;
	bool fits = rows && strchr(rows + 7, '\t');
	FILE *f = fits ? rb_create_stream(latest) : NULL;
	if (f) {
		fputs(c, f);
		fclose(f);
	}
	free(c);
}

int bench_record(const char *db_path, struct bench_args *a)
{
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
	snprintf(text, sizeof(text), "bench filter=%s variant=%s repetitions=%lu min_time=%g",
		 a->filter ? a->filter : ".", a->variant ? a->variant : "all", a->repetitions, a->min_time_s);
	struct run_here here;
	run_here_init(&here, "bench", a->variant, a->config_name ? a->config_name : "bench", text);
	here.m.tag = a->tag;
	if (db_run_begin(&db, &here.m, &a->run, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		db_close(&db);
		return 1;
	}
	char dir[PATH_MAX], json[PATH_MAX + 96], calib[PATH_MAX + 96], table[PATH_MAX + 96], latest[PATH_MAX + 96],
		name[32];
	snprintf(name, sizeof(name), "run-%lld", (long long)a->run);
	if (results_dir(db_path, name, dir, sizeof(dir)) < 0) {
		db_run_end(&db, a->run, "failed", "cannot create the run's directory");
		db_close(&db);
		return 1;
	}
	snprintf(json, sizeof(json), "%s/bench.json", dir);
	snprintf(calib, sizeof(calib), "%s/calibration.tsv", dir);
	snprintf(table, sizeof(table), "%s/bench.txt", dir);
	unlink(json); /* Google Benchmark opens it by name */
	if (run_binary(bin, a, json, table) < 0) {
		db_run_end(&db, a->run, "failed", "the benchmark binary failed");
		db_close(&db);
		return 1;
	}
	int rc = import(&db, a->run, a->variant, json, calib, err, sizeof(err));
	if (rc < 0)
		rb_error("%s", err);
	db_run_end(&db, a->run, rc < 0 ? "failed" : "done", NULL);
	db_close(&db);
	keep_calibration(db_path, calib, latest, sizeof(latest));
	char sj[PATH_MAX + 96], st[PATH_MAX + 96];
	printf("run %lld: %s\njson: %s\n%s%s%scalibration: %s\n", (long long)a->run, rc < 0 ? "failed" : "done",
	       rb_path_shown(json, sj, sizeof(sj)), a->quiet ? "table: " : "",
	       a->quiet ? rb_path_shown(table, st, sizeof(st)) : "", a->quiet ? "\n" : "", latest);
	return rc < 0 ? 1 : 0;
}
