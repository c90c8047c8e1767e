/* `rmapbench bench [FILTER]`: runs the microbenchmarks (rmapbench-bench,
 * Google Benchmark underneath), keeps the JSON file it wrote beside the
 * run, stores each benchmark's aggregates (mean, median, stddev, cv) as a
 * bench-target run, fits the engine's walk cost against N, and writes the
 * calibration file. The JSON is read with SQLite's own JSON functions. */
#include "commands.h"
#include "db.h"
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef RMAPBENCH_REV
#define RMAPBENCH_REV "unknown"
#endif

static int bench_path(char *buf, size_t len)
{
	char dir[PATH_MAX];
	if (rb_exe_dir(dir, sizeof(dir)) < 0)
		return -1;
	snprintf(buf, len, "%s/rmapbench-bench", dir);
	if (access(buf, X_OK) == 0)
		return 0;
	snprintf(buf, len, "%s/../rmapbench-bench", dir); /* from build/asan/ */
	return access(buf, X_OK);
}

static const char *const standard_keys[] = { "name", "family_index", "per_family_instance_index", "run_name",
					     "run_type", "repetitions", "repetition_index", "threads", "aggregate_name",
					     "aggregate_unit", "iterations", "real_time", "cpu_time", "time_unit",
					     "label", "error_occurred", "error_message", NULL };

static bool is_standard(const char *k)
{
	for (int i = 0; standard_keys[i]; i++)
		if (!strcmp(standard_keys[i], k))
			return true;
	return false;
}

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

/* Least squares of ns against n with weights 1/ns^2: n is log-spaced
 * (1, 10, ..., 10000), so each point should count by its relative error,
 * not let the largest decide. Returns slope, intercept and the weighted
 * r^2. */
static void fit(const struct fitpt *p, int k, double *slope, double *icept, double *r2)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (int i = 0; i < k; i++) {
		double w = p[i].ns > 0 ? 1.0 / (p[i].ns * p[i].ns) : 0;
		sw += w, sx += w * p[i].n, sy += w * p[i].ns, sxx += w * p[i].n * p[i].n, sxy += w * p[i].n * p[i].ns;
	}
	double d = sw * sxx - sx * sx;
	*slope = d != 0 ? (sw * sxy - sx * sy) / d : 0;
	*icept = sw > 0 ? (sy - *slope * sx) / sw : 0;
	double mean = sw > 0 ? sy / sw : 0, sst = 0, sse = 0;
	for (int i = 0; i < k; i++) {
		double w = p[i].ns > 0 ? 1.0 / (p[i].ns * p[i].ns) : 0;
		double r = p[i].ns - (*slope * p[i].n + *icept);
		sse += w * r * r;
		sst += w * (p[i].ns - mean) * (p[i].ns - mean);
	}
	*r2 = sst > 0 ? 1 - sse / sst : 1;
}

static int import(struct db *db, int64_t run, const char *json_path, const char *calib_path, char *err, size_t elen)
{
	size_t len;
	char *json = rb_read_file(json_path, &len);
	if (!json) {
		snprintf(err, elen, "%s: %s", json_path, strerror(errno));
		return -1;
	}
	sqlite3_stmt *ctx, *rows, *keys;
	char version[64] = "unknown", build[32] = "unknown";
	if (sqlite3_prepare_v2(db->h,
			       "SELECT json_extract(?1, '$.context.library_version'), "
			       "json_extract(?1, '$.context.library_build_type')",
			       -1, &ctx, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->h,
			       "SELECT value, json_extract(value, '$.run_name'), json_extract(value, '$.aggregate_name'), "
			       "json_extract(value, '$.aggregate_unit'), json_extract(value, '$.real_time'), "
			       "json_extract(value, '$.cpu_time'), json_extract(value, '$.time_unit') "
			       "FROM json_each(?1, '$.benchmarks') WHERE json_extract(value, '$.run_type') = 'aggregate'",
			       -1, &rows, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->h, "SELECT key, value FROM json_each(?1) WHERE type IN ('integer', 'real')", -1, &keys,
			       NULL) != SQLITE_OK) {
		snprintf(err, elen, "%s: %s", json_path, sqlite3_errmsg(db->h));
		free(json);
		return -1;
	}
	sqlite3_bind_text(ctx, 1, json, (int)len, SQLITE_STATIC);
	if (sqlite3_step(ctx) == SQLITE_ROW) {
		if (sqlite3_column_type(ctx, 0) != SQLITE_NULL)
			snprintf(version, sizeof(version), "%s", sqlite3_column_text(ctx, 0));
		if (sqlite3_column_type(ctx, 1) != SQLITE_NULL)
			snprintf(build, sizeof(build), "%s", sqlite3_column_text(ctx, 1));
	} else {
		snprintf(err, elen, "%s: not Google Benchmark JSON", json_path);
	}
	sqlite3_finalize(ctx);
	sqlite3_bind_text(rows, 1, json, (int)len, SQLITE_STATIC);

	/* one point per benchmark instance, its aggregates as metrics */
	char cur[256] = "", now[32];
	struct sample_set ss = { 0 };
	int seq = 0, rc = 0, nfit = 0;
	static struct fitpt fits[512];
	rb_utc_now(now, sizeof(now));
	for (int more = 1; more;) {
		more = sqlite3_step(rows) == SQLITE_ROW;
		const char *name = more ? (const char *)sqlite3_column_text(rows, 1) : "";
		if ((!more || strcmp(name, cur)) && cur[0]) {
			struct point_rec pr = { ++seq, cur, arg_of(cur), 1, cur, "done", NULL, now, now };
			ss_attr(&ss, "library_version", "%s", version);
			ss_attr(&ss, "library_build_type", "%s", build);
			ss_attr(&ss, "json", "%s", json_path);
			if (db_point_record(db, run, &pr, &ss, NULL, err, elen) < 0)
				rc = -1;
			ss_free(&ss);
		}
		if (!more)
			break;
		snprintf(cur, sizeof(cur), "%s", name);
		const char *agg = (const char *)sqlite3_column_text(rows, 2);
		const char *aunit = (const char *)sqlite3_column_text(rows, 3);
		const char *tunit = (const char *)sqlite3_column_text(rows, 6);
		bool pct = aunit && !strcmp(aunit, "percentage");
		char m[160];
		snprintf(m, sizeof(m), "real_time_%s", agg);
		ss_add(&ss, m, sqlite3_column_double(rows, 4), pct ? "ratio" : tunit);
		snprintf(m, sizeof(m), "cpu_time_%s", agg);
		ss_add(&ss, m, sqlite3_column_double(rows, 5), pct ? "ratio" : tunit);
		sqlite3_bind_text(keys, 1, (const char *)sqlite3_column_text(rows, 0), -1, SQLITE_TRANSIENT);
		while (sqlite3_step(keys) == SQLITE_ROW) {
			const char *k = (const char *)sqlite3_column_text(keys, 0);
			if (is_standard(k))
				continue;
			snprintf(m, sizeof(m), "%s_%s", k, agg);
			ss_add(&ss, m, sqlite3_column_double(keys, 1), pct ? "ratio" : "counter");
		}
		sqlite3_reset(keys);
		/* the engine's costs against N, for the fits and the calibration */
		if (!strcmp(agg, "mean") && !strncmp(name, "engine/", 7) && nfit < 512) {
			double scale = !strcmp(tunit, "us") ? 1e3 : !strcmp(tunit, "ms") ? 1e6 : !strcmp(tunit, "s") ? 1e9 : 1;
			snprintf(fits[nfit].family, sizeof(fits[nfit].family), "%.*s", (int)(strrchr(name, ':') ? strrchr(name, ':') - name : 0), name);
			char *slash = strrchr(fits[nfit].family, '/');
			if (slash)
				*slash = 0;
			fits[nfit].n = (double)arg_of(name);
			fits[nfit].ns = sqlite3_column_double(rows, 4) * scale;
			nfit++;
		}
	}
	sqlite3_finalize(rows);
	sqlite3_finalize(keys);
	free(json);

	/* fits per family: engine/<op>/<variant> */
	FILE *cal = fopen(calib_path, "w");
	if (cal)
		fprintf(cal, "# rmapbench calibration: the engine's cost per operation, ns = fixed + per_n x n\n"
			     "# (n: children for walks, fork depth for fork and exit); Google Benchmark %s (%s build)\n"
			     "# variant\toperation\tfixed_ns\tper_n_ns\tr2\tpoints\n",
			version, build);
	for (int i = 0; i < nfit; i++) {
		bool first = true;
		for (int j = 0; j < i; j++)
			first &= strcmp(fits[j].family, fits[i].family) != 0;
		if (!first)
			continue;
		struct fitpt pts[32];
		int k = 0;
		for (int j = i; j < nfit && k < 32; j++)
			if (!strcmp(fits[j].family, fits[i].family))
				pts[k++] = fits[j];
		if (k < 2)
			continue;
		double slope, icept, r2;
		fit(pts, k, &slope, &icept, &r2);
		char point[200];
		snprintf(point, sizeof(point), "fit:%s", fits[i].family);
		ss_add(&ss, "per_n_ns", slope, "ns");
		ss_add(&ss, "fixed_ns", icept, "ns");
		ss_add(&ss, "r2", r2, "ratio");
		struct point_rec pr = { ++seq, point, 0, 1, "least squares of the mean time against n", "done", NULL, now, now };
		if (db_point_record(db, run, &pr, &ss, NULL, err, elen) < 0)
			rc = -1;
		ss_free(&ss);
		/* engine/<op>/<variant> */
		const char *op = fits[i].family + 7, *var = strrchr(fits[i].family, '/');
		printf("fit %-40s %10.3f ns + %8.3f ns x n  (weighted r2 %.3f, %d points)\n", fits[i].family, icept, slope, r2, k);
		if (cal && var)
			fprintf(cal, "%s\t%.*s\t%.3f\t%.4f\t%.4f\t%d\n", var + 1, (int)(var - op), op, icept, slope, r2, k);
	}
	if (cal)
		fclose(cal);
	return rc;
}

int cmd_bench(int argc, char **argv, const char *db_path)
{
	const char *filter = ".", *reps = "5", *min_time = "0.2";
	for (int i = 0; i < argc; i++) {
		if ((!strcmp(argv[i], "--repetitions") || !strcmp(argv[i], "--min-time")) && i + 1 < argc) {
			char *end;
			double v = strtod(argv[i + 1], &end);
			if (*end || v <= 0 || (argv[i][2] == 'r' && (v != (long)v || v > 1000))) {
				rb_error("%s %s: expected a positive %s", argv[i], argv[i + 1],
					 argv[i][2] == 'r' ? "integer" : "number of seconds");
				return 2;
			}
			if (argv[i][2] == 'r')
				reps = argv[++i];
			else
				min_time = argv[++i];
		} else if (argv[i][0] == '-') {
			rb_error("bench: unknown option '%s' (bench [FILTER] [--repetitions R] [--min-time S])", argv[i]);
			return 2;
		} else {
			filter = argv[i];
		}
	}
	char bin[PATH_MAX + 32], err[1200];
	if (bench_path(bin, sizeof(bin)) < 0) {
		rb_error("the benchmark binary is missing (run 'make')");
		return 1;
	}
	struct db db;
	if (db_open(db_path, &db, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return 1;
	}
	char host[256] = "", text[512];
	struct utsname u;
	uname(&u);
	gethostname(host, sizeof(host) - 1);
	snprintf(text, sizeof(text), "bench filter=%s repetitions=%s min_time=%s", filter, reps, min_time);
	struct run_meta m = { RMAPBENCH_REV, host, u.release, NULL, "bench", NULL, "bench", text };
	int64_t run;
	if (db_run_begin(&db, &m, &run, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		db_close(&db);
		return 1;
	}
	char tmp[PATH_MAX], dir[PATH_MAX + 64], json[PATH_MAX + 96], calib[PATH_MAX + 96], latest[PATH_MAX + 96];
	snprintf(tmp, sizeof(tmp), "%s", db_path);
	snprintf(dir, sizeof(dir), "%s/run-%lld", dirname(tmp), (long long)run);
	snprintf(json, sizeof(json), "%s/bench.json", dir);
	snprintf(calib, sizeof(calib), "%s/calibration.tsv", dir);
	rb_mkdir_p(dir);
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
	snprintf(tmp, sizeof(tmp), "%s", db_path);
	snprintf(latest, sizeof(latest), "%s/calibration.tsv", dirname(tmp));
	char *c = rb_read_file(calib, NULL);
	/* a run without engine benchmarks has no fits: keep the last calibration */
	const char *rows = c ? strstr(c, "points\n") : NULL;
	bool fits = rows && strchr(rows + 7, '\t');
	FILE *f = fits ? fopen(latest, "w") : NULL;
	if (f) {
		fputs(c, f);
		fclose(f);
	}
	free(c);
	printf("run %lld: %s\njson: %s\ncalibration: %s\n", (long long)run, rc < 0 ? "failed" : "done", json, latest);
	return rc < 0 ? 1 : 0;
}
