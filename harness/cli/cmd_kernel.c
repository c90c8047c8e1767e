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
#include "flags.h"
#include "kernel.h"
#include "kernel_runs.h"
#include "recipe.h"
#include "run_here.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

#define DEFAULT_KERNEL_CONFIG "configs/vm.conf"
#define DEFAULT_COMPARE_CONFIG "configs/compare-kernels.conf"

static void kernel_usage(FILE *f)
{
	fputs("usage: rmapbench kernel list\n"
	      "       rmapbench kernel fetch LABEL     a Debian kernel package into the cache (kind = package)\n"
	      "       rmapbench kernel build LABEL     a kernel from linux-source-6.1 (kind = build)\n"
	      "       rmapbench kernel build git:PATH@REV  a commit of a git tree, built incrementally\n"
	      "       rmapbench kernel run LABEL [--config FILE] [--set KEY=VALUE]...\n"
	      "       rmapbench compare-kernels A B [--config FILE] [--set KEY=VALUE]... [--junit F] [--markdown F]\n"
	      "LABEL names kernels/LABEL.kernel; run and compare-kernels also take an image path.\n"
	      "The cache is $RMAPBENCH_KERNEL_CACHE, else ~/.cache/rmapbench/kernels.\n",
	      f);
}

/* --config FILE and --set K=V after the positional arguments. */
struct suite_args {
	const char *config;
	struct compare_outputs out;
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
		{ "--junit", FLAG_STRING, &a->out.junit, 0, 0, NULL },
		{ "--markdown", FLAG_STRING, &a->out.markdown, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	return flags_parse("kernel", flags, argc, argv, a->pos, (int)ARRAY_SIZE(a->pos), &a->npos);
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
		return kernels_list();
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
		if (a.npos != 1 || a.out.junit || a.out.markdown) {
			rb_error("kernel run: expected one LABEL (--junit and --markdown are compare-kernels')");
			return 2;
		}
		struct db h;
		int64_t run;
		if (db_open_said(db, &h) < 0)
			return 1;
		int rc = kernels_run_one(a.config, a.sets, a.nsets, a.pos[0], NULL, &h, &run);
		db_close(&h);
		return rc;
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
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 1;
	int rc = kernels_compare(a.config, a.sets, a.nsets, a.pos, &a.out, &db);
	db_close(&db);
	return rc;
}
