/* Kernels for the vm target, and comparing two of them.
 *
 *   kernel list                      recipes and what the cache holds
 *   kernel fetch|build LABEL         get the image (cached; a second call reuses it)
 *   kernel run LABEL [--config FILE] one suite in that kernel
 *   compare-kernels A B [--config FILE] [--set K=V]...
 *       the same suite in A, then in B (two runs), then the verdicts
 *       of `compare` (verdict.h) between them, each kernel's AIM7
 *       crossover, and a figure per headline metric. */
#include "commands.h"
#include "crossover.h"
#include "db.h"
#include "query.h"
#include "flags.h"
#include "kernel.h"
#include "recipe.h"
#include "verdict.h"
#include "verdicts.h"
#include "record.h"
#include "report.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_KERNEL_CONFIG "configs/vm.conf"
#define DEFAULT_COMPARE_CONFIG "configs/compare-kernels.conf"

static void kernel_usage(FILE *f)
{
	fputs("usage: rmapbench kernel list\n"
	      "       rmapbench kernel fetch LABEL     a Debian kernel package into the cache (kind = package)\n"
	      "       rmapbench kernel build LABEL     a kernel from linux-source-6.1 (kind = build)\n"
	      "       rmapbench kernel build git:PATH@REV  a commit of a git tree, built incrementally\n"
	      "       rmapbench kernel run LABEL [--config FILE] [--set KEY=VALUE]...\n"
	      "       rmapbench compare-kernels A B [--config FILE] [--set KEY=VALUE]...\n"
	      "LABEL names kernels/LABEL.kernel; run and compare-kernels also take an image path.\n"
	      "The cache is $RMAPBENCH_KERNEL_CACHE, else ~/.cache/rmapbench/kernels.\n",
	      f);
}

static void cache_dir(char *buf, size_t len)
{
	const char *env = getenv("RMAPBENCH_KERNEL_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (xdg && *xdg)
		snprintf(buf, len, "%s/rmapbench/kernels", xdg);
	else
		snprintf(buf, len, "%s/.cache/rmapbench/kernels", home ? home : "/root");
}

static int kernel_list(void)
{
	char dir[PATH_MAX], cache[PATH_MAX];
	if (kernel_recipes_dir(dir, sizeof(dir)) < 0) {
		rb_error("cannot find the kernels/ directory (set RMAPBENCH_KERNELS_DIR)");
		return 1;
	}
	cache_dir(cache, sizeof(cache));
	DIR *d = opendir(dir);
	if (!d) {
		rb_error("%s: %s", dir, strerror(errno));
		return 1;
	}
	printf("%-18s %-8s %-28s %s\n", "label", "kind", "release (last prepared)", "cache");
	struct dirent *e;
	char names[64][64];
	int n = 0;
	while ((e = readdir(d)) && n < 64) {
		size_t l = strlen(e->d_name);
		if (l > 7 && l < 64 && !strcmp(e->d_name + l - 7, ".kernel"))
			snprintf(names[n++], sizeof(names[0]), "%.*s", (int)(l - 7), e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);
	for (int i = 0; i < n; i++) {
		char link[PATH_MAX + 80], err[300];
		struct kernel_info k;
		snprintf(link, sizeof(link), "%s/%s", cache, names[i]);
		struct kernel_recipe r;
		const char *kind = kernel_recipe_load(names[i], &r, err, sizeof(err)) == 0 ? r.kind : "unreadable";
		if (kernel_info_load(link, &k, err, sizeof(err)) == 0) {
			char real[PATH_MAX];
			printf("%-18s %-8s %-28s %s\n", names[i], kind, k.release,
			       realpath(link, real) ? real : link);
		} else {
			printf("%-18s %-8s %-28s %s\n", names[i], kind, "-", "not prepared yet");
		}
	}
	return 0;
}

/* --config FILE and --set K=V after the positional arguments. */
struct suite_args {
	const char *config;
	const char *sets[64];
	int nsets;
	const char *pos[4];
	int npos;
};

static int parse_suite_args(int argc, char **argv, struct suite_args *a, const char *dflt)
{
	memset(a, 0, sizeof(*a));
	a->config = dflt;
	const struct flag flags[] = {
		{ "--config", FLAG_STRING, &a->config, 0, 0, NULL },
		{ "--set", FLAG_STRINGS, a->sets, 0, ARRAY_SIZE(a->sets), &a->nsets },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	return flags_parse("kernel", flags, argc, argv, a->pos, (int)ARRAY_SIZE(a->pos), &a->npos);
}

int kernels_run_one(const char *config, const char *const *sets, int nsets, const char *label, const char *tag,
			 const char *db, int64_t *run)
{
	struct config cfg;
	char err[600], kv[300];
	if (config_load_set(&cfg, config, sets, nsets, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	snprintf(kv, sizeof(kv), "kernel=%s", label);
	if (config_set(&cfg, "target=vm", err, sizeof(err)) < 0 || config_set(&cfg, kv, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	if (tag)
		snprintf(cfg.tag, sizeof(cfg.tag), "%s", tag);
	int rc = cmd_run(&cfg, db, run);
	config_free(&cfg);
	return rc;
}

struct run_variant {
	char *buf;
	size_t len;
};

static int run_variant_of(void *arg, const struct db_run *r)
{
	struct run_variant *rv = arg;
	snprintf(rv->buf, rv->len, "%s", r->variant ? r->variant : "");
	return 0;
}

int kernels_run_pair(const char *config, const char *const *sets, int nsets, const char *const labels[2],
		     const char *tag, const char *db_path, int64_t runs[2])
{
	if (access(config, R_OK) < 0) {
		rb_error("compare-kernels: --config %s: %s", config, strerror(errno));
		return 2;
	}
	runs[0] = runs[1] = 0;
	int rcs[2];
	for (int i = 0; i < 2; i++) {
		fprintf(stderr, "rmapbench: compare-kernels: %s (%s)\n", labels[i], i ? "B" : "A");
		rcs[i] = kernels_run_one(config, sets, nsets, labels[i], tag, db_path, &runs[i]);
		if (!runs[i] || rcs[i] == 130)
			return rcs[i] ? rcs[i] : 1;
	}
	return rcs[0] ? rcs[0] : rcs[1];
}

int cmd_kernel(int argc, char **argv, const char *db)
{
	if (argc < 1 || flags_help(argc, argv)) {
		kernel_usage(argc < 1 ? stderr : stdout);
		return argc < 1 ? 2 : 0;
	}
	const char *sub = argv[0];
	if (!strcmp(sub, "list")) {
		if (argc != 1) {
			rb_error("kernel list takes no arguments");
			return 2;
		}
		return kernel_list();
	}
	if (!strcmp(sub, "fetch") || !strcmp(sub, "build")) {
		if (argc != 2) {
			rb_error("kernel %s: expected one LABEL (rmapbench kernel list)", sub);
			return 2;
		}
		char err[600];
		struct kernel_recipe r;
		if (!strcmp(sub, "build") && !strncmp(argv[1], "git:", 4)) {
			struct kernel_info g;
			if (kernel_git_run(argv[1], &g, err, sizeof(err)) < 0) {
				rb_error("%s", err);
				return 1;
			}
			printf("%s\t%s %s %s\n", g.label, g.release, g.config_hash, g.image);
			return 0;
		}
		if (kernel_recipe_load(argv[1], &r, err, sizeof(err)) < 0) {
			rb_error("%s", err);
			return 1;
		}
		if (strcmp(r.kind, !strcmp(sub, "build") ? "build" : "package")) {
			rb_error("%s: kernel '%s' is %s, not %s", r.path, argv[1],
				 !strcmp(r.kind, "build") ? "built (kernel build)" : "a package (kernel fetch)", sub);
			return 2;
		}
		struct kernel_info k;
		if (kernel_recipe_run(argv[1], &k, err, sizeof(err)) < 0) {
			rb_error("%s", err);
			return 1;
		}
		printf("%s %s %s %s\n", k.label, k.release, k.config_hash, k.image);
		return 0;
	}
	if (!strcmp(sub, "run")) {
		struct suite_args a;
		if (parse_suite_args(argc - 1, argv + 1, &a, DEFAULT_KERNEL_CONFIG) < 0)
			return 2;
		if (a.npos != 1) {
			rb_error("kernel run: expected one LABEL");
			return 2;
		}
		int64_t run;
		return kernels_run_one(a.config, a.sets, a.nsets, a.pos[0], NULL, db, &run);
	}
	rb_error("kernel: unknown subcommand '%s' (rmapbench kernel --help)", sub);
	return 2;
}

int cmd_compare_kernels(int argc, char **argv, const char *db_path)
{
	if (flags_help(argc, argv)) {
		kernel_usage(stdout);
		return 0;
	}
	struct suite_args a;
	if (parse_suite_args(argc, argv, &a, DEFAULT_COMPARE_CONFIG) < 0)
		return 2;
	if (a.npos != 2) {
		rb_error("compare-kernels: expected two kernels, A and B (rmapbench kernel list)");
		return 2;
	}
	int64_t runs[2];
	int rc = kernels_run_pair(a.config, a.sets, a.nsets, a.pos, NULL, db_path, runs);
	if (!runs[0] || !runs[1] || rc == 130)
		return rc;
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 1;
	const char *labels[2] = { a.pos[0], a.pos[1] };
	static char named[2][200];
	for (int i = 0; i < 2; i++) {
		if (!strncmp(labels[i], "git:", 4)) { /* the commit: its short hash and subject, as the run has it */
			struct run_variant rv = { named[i], sizeof(named[i]) };
			if (db_run_get(&db, runs[i], run_variant_of, &rv) == 1 && named[i][0])
				labels[i] = named[i];
		} else if (strchr(labels[i], '/')) {
			labels[i] = strrchr(labels[i], '/') + 1;
		}
	}
	printf("\ncompare-kernels: A = %s (run %lld), B = %s (run %lld)\n", labels[0], (long long)runs[0], labels[1],
	       (long long)runs[1]);
	struct side sa = { .db = &db, .runs = { runs[0] }, .nruns = 1 }, sb = { .db = &db, .runs = { runs[1] }, .nruns = 1 };
	snprintf(sa.label, sizeof(sa.label), "%s (run %lld)", labels[0], (long long)runs[0]);
	snprintf(sb.label, sizeof(sb.label), "%s (run %lld)", labels[1], (long long)runs[1]);
	struct comparison cmp;
	if (compare_sides(&sa, &sb, &cmp) == 0) {
		verdicts_print(&cmp, &sa, &sb);
		comparison_free(&cmp);
	}
	char dir[PATH_MAX], name[64];
	snprintf(name, sizeof(name), "compare-%lld-%lld", (long long)runs[0], (long long)runs[1]);
	crossover_report_runs(&db, db_path, runs, labels);
	if (results_dir(db_path, name, dir, sizeof(dir)) == 0) {
		static const char *const figs[] = { "rmap_vmas_per_walk", "sys_pct", "jobs_per_min",
						    "jobs_per_min_per_user" };
		for (size_t i = 0; i < ARRAY_SIZE(figs); i++) {
			char png[PATH_MAX + 40], shown[PATH_MAX + 80];
			if (report_compare(&db, runs, labels, figs[i], dir, png, sizeof(png)) == 0)
				printf("figure: %s\n", rb_path_shown(png, shown, sizeof(shown)));
		}
	}
	db_close(&db);
	return rc;
}
