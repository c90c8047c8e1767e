/* The nightly's parts (nightly_parts.h): the suite itself; its vm part,
 * the suite's workloads at vm_users in a guest of each of vm_kernels; the
 * engine's walkcost of `variant` (engine_children); the engine
 * benchmarks of `variant` (bench_repetitions); and the reference, the
 * positive control: reference_config in a guest of the good kernel and
 * of the known-bad one. */
#include "nightly_parts.h"
#include "bench_run.h"
#include "engine_jobs.h"
#include "kernel_runs.h"
#include "suite_job.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static int one(const struct config *cfg)
{
	(void)cfg;
	return 1;
}

static void suite_plan_part(const struct config *cfg, int k)
{
	(void)k;
	suite_job_plan(cfg);
}

static int suite_part(struct config *cfg, int k, struct db *db, int64_t runs[2])
{
	(void)k;
	int rc = suite_job(cfg, db, &runs[0]);
	if (!runs[0]) /* it never started: a missing kernel, package or binary */
		return 2;
	return rc == 130 ? 130 : 0;
}

static int vm_count(const struct config *cfg)
{
	return cfg->n_vm_kernels;
}

/* "where the machine can": without QEMU a vm part is skipped, said */
static bool have_qemu(const char *kernel)
{
	if (rb_have_program("qemu-system-x86_64"))
		return true;
	printf("nightly: the vm part on %s is skipped: qemu-system-x86_64 is not installed (package qemu-system-x86)\n",
	       kernel);
	return false;
}

/* The vm part on kernel k, a suite of its own (NAME-vm, judged against
 * the same kernel's): the suite's config, changed in those fields. */
static void vm_config(const struct config *cfg, int k, struct config *v)
{
	char users[200] = "";
	config_copy(v, cfg);
	snprintf(v->target, sizeof(v->target), "vm");
	snprintf(v->kernel, sizeof(v->kernel), "%s", cfg->vm_kernels[k]);
	snprintf(v->name, sizeof(v->name), "%s-vm", cfg->name);
	snprintf(v->tag, sizeof(v->tag), "nightly");
	for (int i = 0; i < cfg->n_vm_users; i++) {
		v->users[i] = cfg->vm_users[i];
		snprintf(users + strlen(users), sizeof(users) - strlen(users), " %ld", cfg->vm_users[i]);
	}
	if (cfg->n_vm_users)
		v->n_users = cfg->n_vm_users;
	for (int i = 0; i < cfg->n_vm_workloads; i++)
		snprintf(v->workloads[i], sizeof(v->workloads[i]), "%s", cfg->vm_workloads[i]);
	if (cfg->n_vm_workloads)
		v->n_workloads = cfg->n_vm_workloads;
	char workloads[300] = "";
	for (int i = 0; i < v->n_workloads; i++)
		snprintf(workloads + strlen(workloads), sizeof(workloads) - strlen(workloads), " %s", v->workloads[i]);
	/* as keys, so that the run's own config runs it again (a confirmation) */
	config_note(v, "# the nightly's vm part (name %s):\ntarget = vm\nkernel = %s\nusers =%s\nworkloads =%s",
		    v->name, v->kernel, users, workloads);
}

static void vm_plan(const struct config *cfg, int k)
{
	struct config v;
	if (!have_qemu(cfg->vm_kernels[k]))
		return;
	vm_config(cfg, k, &v);
	suite_job_plan(&v);
	config_free(&v);
}

static int vm_part(struct config *cfg, int k, struct db *db, int64_t runs[2])
{
	struct config v;
	if (!have_qemu(cfg->vm_kernels[k]))
		return 0;
	vm_config(cfg, k, &v);
	int rc = suite_job(&v, db, &runs[0]);
	config_free(&v);
	if (rc == 130)
		return 130;
	if (!runs[0]) {
		rb_error("nightly: the vm part on kernel %s did not start", cfg->vm_kernels[k]);
		return 2;
	}
	return 0;
}

static int walkcost_count(const struct config *cfg)
{
	return cfg->n_engine_children > 0;
}

static void walkcost_plan(const struct config *cfg, int k)
{
	(void)k;
	printf("# engine part: walkcost of %s at %d values of N, %ld pages each\n", cfg->variant,
	       cfg->n_engine_children, cfg->engine_pages);
}

static int walkcost_part(struct config *cfg, int k, struct db *db, int64_t runs[2])
{
	struct eargs a = { 0 };
	char name[96];
	(void)k;
	snprintf(name, sizeof(name), "%s-walkcost", cfg->name[0] ? cfg->name : "nightly");
	a.variant = cfg->variant;
	for (int i = 0; i < cfg->n_engine_children; i++)
		a.children[i] = (unsigned long)cfg->engine_children[i];
	a.nchildren = cfg->n_engine_children;
	a.pages = (unsigned long)cfg->engine_pages;
	a.config_name = name;
	a.tag = "nightly";
	snprintf(a.cmdline, sizeof(a.cmdline), "walkcost --variant %s (%s)", cfg->variant, name);
	printf("nightly: walkcost of %s at %d values of N\n", cfg->variant, cfg->n_engine_children);
	fflush(stdout);
	if (engine_walkcost(db->path, &a) != 0 || !a.last_run) {
		rb_error("nightly: the engine part (walkcost of %s) failed", cfg->variant);
		return 2;
	}
	runs[0] = a.last_run;
	return 0;
}

static int bench_count(const struct config *cfg)
{
	return cfg->bench_repetitions > 0;
}

static void bench_plan(const struct config *cfg, int k)
{
	(void)k;
	printf("# engine benchmarks: those of %s, %d repetitions of at least %g s\n", cfg->variant,
	       cfg->bench_repetitions, cfg->bench_min_time_s);
}

static int bench_part(struct config *cfg, int k, struct db *db, int64_t runs[2])
{
	char name[96];
	(void)k;
	snprintf(name, sizeof(name), "%s-bench", cfg->name[0] ? cfg->name : "nightly");
	printf("nightly: the engine benchmarks of %s, %d repetitions\n", cfg->variant, cfg->bench_repetitions);
	fflush(stdout);
	struct bench_args b = { .variant = cfg->variant,
				.repetitions = (unsigned long)cfg->bench_repetitions,
				.min_time_s = cfg->bench_min_time_s,
				.config_name = name,
				.tag = "nightly",
				.quiet = true };
	if (bench_record(db->path, &b) != 0 || !b.run) {
		rb_error("nightly: the engine benchmarks of %s failed", cfg->variant);
		return 2;
	}
	runs[0] = b.run;
	return 0;
}

static int reference_count(const struct config *cfg)
{
	return cfg->n_reference_kernels > 0;
}

static void reference_plan(const struct config *cfg, int k)
{
	(void)k;
	printf("# reference: %s in %s and %s; must regress on %s\n", cfg->reference_config, cfg->reference_kernels[0],
	       cfg->reference_kernels[1], cfg->reference_metric);
}

static int reference_part(struct config *cfg, int k, struct db *db, int64_t runs[2])
{
	const char *labels[2] = { cfg->reference_kernels[0], cfg->reference_kernels[1] };
	(void)k;
	if (!rb_have_program("qemu-system-x86_64")) {
		rb_error("nightly: the reference part (%s against %s) cannot run: qemu-system-x86_64 is not installed "
			 "(package qemu-system-x86)",
			 labels[1], labels[0]);
		return 2;
	}
	printf("nightly: the reference, %s against %s (%s), must regress on %s\n", labels[1], labels[0],
	       cfg->reference_config, cfg->reference_metric);
	fflush(stdout);
	int rc = kernels_run_pair(cfg->reference_config, NULL, 0, labels, "nightly", db, runs);
	if (!runs[0] || !runs[1] || rc) {
		if (rc != 130)
			rb_error("nightly: the reference part (%s against %s) did not run to its end", labels[1],
				 labels[0]);
		return rc == 130 ? 130 : 2;
	}
	return 0;
}

const struct nightly_part nightly_parts[] = {
	{ "suite", false, one, suite_plan_part, suite_part },
	{ "vm", false, vm_count, vm_plan, vm_part },
	{ "walkcost", false, walkcost_count, walkcost_plan, walkcost_part },
	{ "bench", false, bench_count, bench_plan, bench_part },
	{ "reference", true, reference_count, reference_plan, reference_part },
	{ NULL, false, NULL, NULL, NULL },
};
