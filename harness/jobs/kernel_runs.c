/* Suites in guests of named kernels (kernel_runs.h). */
#include "kernel_runs.h"
#include "verdict_files.h"
#include "compare_runs.h"
#include "query.h"
#include "run_here.h"
#include "report.h"
#include "suite_job.h"
#include "util.h"
#include "verdict.h"
#include "verdicts.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* base in a guest of kernel label, tagged tag (when not NULL): 0, or
 * -1 said. */
static int in_guest(const struct config *base, const char *label, const char *tag, struct config *cfg)
{
	char err[600], kv[300];
	config_copy(cfg, base);
	snprintf(kv, sizeof(kv), "kernel=%s", label);
	if (config_set(cfg, "target=vm", err, sizeof(err)) < 0 || config_set(cfg, kv, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return -1;
	}
	if (tag)
		snprintf(cfg->tag, sizeof(cfg->tag), "%s", tag);
	return 0;
}

int kernels_run_step(const struct config *base, const char *label, const char *tag, struct db *db, int64_t *run)
{
	struct config cfg;
	*run = 0;
	int rc = in_guest(base, label, tag, &cfg) < 0 ? 2 : suite_job_bare(&cfg, db, run);
	config_free(&cfg);
	return rc;
}

int kernels_run_one(const char *config, const char *const *sets, int nsets, const char *label, const char *tag,
		    struct db *db, int64_t *run)
{
	struct config base, cfg;
	char err[600];
	*run = 0;
	if (config_load_set(&base, config, sets, nsets, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&base);
		return 2;
	}
	int rc = in_guest(&base, label, tag, &cfg) < 0 ? 2 : suite_job(&cfg, db, run);
	config_free(&cfg);
	config_free(&base);
	return rc;
}

int kernels_run_pair(const char *config, const char *const *sets, int nsets, const char *const labels[2],
		     const char *tag, struct db *db, int64_t runs[2])
{
	runs[0] = runs[1] = 0;
	if (access(config, R_OK) < 0) {
		rb_error("compare-kernels: --config %s: %s", config, strerror(errno));
		return 2;
	}
	int rcs[2];
	for (int i = 0; i < 2; i++) {
		fprintf(stderr, "rmapbench: compare-kernels: %s (%s)\n", labels[i], i ? "B" : "A");
		rcs[i] = kernels_run_one(config, sets, nsets, labels[i], tag, db, &runs[i]);
		if (!runs[i] || rcs[i] == 130)
			return rcs[i] ? rcs[i] : 1;
	}
	return rcs[0] ? rcs[0] : rcs[1];
}

static int kernel_label_of(void *arg, const struct db_run *r)
{
	snprintf(arg, 200, "%s", r->kernel_label ? r->kernel_label : "");
	return 0;
}

/* A kernel's word in the output: a git commit's short hash and subject
 * as its run has them, an image's file name, else the label. */
static const char *kernel_word(struct db *db, const char *label, int64_t run, char named[200])
{
	if (!strncmp(label, "git:", 4) && db_run_get(db, run, kernel_label_of, named) == 1 && named[0])
		return named;
	return strchr(label, '/') ? strrchr(label, '/') + 1 : label;
}

static void figures(struct db *db, const int64_t runs[2], const char *labels[2])
{
	static const char *const figs[] = { "rmap_vmas_per_walk", "sys_pct", "jobs_per_min", "jobs_per_min_per_user" };
	char dir[PATH_MAX], name[64];
	snprintf(name, sizeof(name), "compare-%lld-%lld", (long long)runs[0], (long long)runs[1]);
	crossover_report_runs(db, runs, labels);
	if (results_dir(db->path, name, dir, sizeof(dir)) < 0)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(figs); i++) {
		char png[PATH_MAX + 40], shown[PATH_MAX + 80];
		if (report_compare(db, runs, labels, figs[i], dir, png, sizeof(png)) == 0)
			printf("figure: %s\n", rb_path_shown(png, shown, sizeof(shown)));
	}
}

int kernels_compare(const char *config, const char *const *sets, int nsets, const char *const labels[2],
		    const struct compare_outputs *out, struct db *db)
{
	int64_t runs[2];
	int rc = kernels_run_pair(config, sets, nsets, labels, NULL, db, runs);
	if (!runs[0] || !runs[1] || rc == 130)
		return rc;
	char named[2][200];
	const char *words[2] = { kernel_word(db, labels[0], runs[0], named[0]),
				 kernel_word(db, labels[1], runs[1], named[1]) };
	printf("\ncompare-kernels: A = %s (run %lld), B = %s (run %lld)\n", words[0], (long long)runs[0], words[1],
	       (long long)runs[1]);
	struct side sa = { .db = db, .runs = { runs[0] }, .nruns = 1 }, sb = { .db = db, .runs = { runs[1] }, .nruns = 1 };
	snprintf(sa.label, sizeof(sa.label), "%s (run %lld)", words[0], (long long)runs[0]);
	snprintf(sb.label, sizeof(sb.label), "%s (run %lld)", words[1], (long long)runs[1]);
	struct comparison cmp;
	if (compare_sides(&sa, &sb, &cmp) == 0) {
		verdicts_print(&cmp, &sa, &sb);
		int w = verdict_files("compare-kernels", out ? out->junit : NULL, out ? out->markdown : NULL, db, runs[1],
				      1, &cmp, &sa, &sb, NULL);
		/* as compare: a regression, a kernel error new in B among them, exits 1 */
		if (!rc)
			rc = w ? w : comparison_failures(&cmp) ? 1 : 0;
		comparison_free(&cmp);
	} else if (!rc) {
		rc = 1;
	}
	figures(db, runs, words);
	return rc;
}
