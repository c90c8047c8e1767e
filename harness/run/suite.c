/* A suite: plans the matrix (repetition-major, so that a drift over the
 * run does not line up with one users count), runs each point and records
 * it in one transaction. */
#include "suite.h"
#include "escape.h"
#include "walk_calib.h"
#include "walkcurve.h"

/* AIM7's line, jobs/min per user (harness/compare/crossover.h says it too) */
#define CROSSOVER_LINE 10.0
#include "db.h"
#include "external.h"
#include "kernel.h"
#include "point.h"
#include "progress.h"
#include "record.h"
#include "runlock.h"
#include "sandbox.h"
#include "signals.h"
#include "swap.h"
#include "paths.h"
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

/* A hash of the running kernel's config, where it can be read:
 * /proc/config.gz (zlib reads plain files too), else /boot/config-RELEASE. */
static void kernel_config_hash(const char *release, char *buf, size_t len)
{
	char path[300];
	snprintf(path, sizeof(path), "/boot/config-%s", release);
	gzFile f = gzopen(access("/proc/config.gz", R_OK) == 0 ? "/proc/config.gz" : path, "rb");
	buf[0] = 0;
	if (!f)
		return;
	uint64_t h = 1469598103934665603ull;
	size_t total = 0;
	char chunk[8192];
	int n;
	while ((n = gzread(f, chunk, sizeof(chunk))) > 0) {
		for (int i = 0; i < n; i++) {
			h ^= (unsigned char)chunk[i];
			h *= 1099511628211ull;
		}
		total += (size_t)n;
	}
	gzclose(f);
	if (total && n == 0)
		snprintf(buf, len, "fnv1a64:%016llx", (unsigned long long)h);
}

/* index counts the planned points, 1 to total; a bisection past them
 * (index > total) is numbered among the refine_crossover of its workload */
static void summary_line(const struct point_spec *ps, const struct point_out *po, int index, int total, int refine)
{
	const struct sample *jpm = ss_find(&po->ss, "jobs_per_min");
	const struct sample *fps = ss_find(&po->ss, "forks_per_s");
	const struct sample *sys = ss_find(&po->ss, "sys_pct");
	const struct sample *lock = ss_find(&po->ss, "lock_contentions");
	if (index <= total)
		fprintf(stderr, "[%d/%d]", index, total);
	else
		fprintf(stderr, "[refining %d/%d]", (index - total - 1) % refine + 1, refine);
	fprintf(stderr, " %s users=%ld rep=%d: %s", ps->workload, ps->users, ps->repetition, po->status);
	if (jpm && !jpm->unavailable)
		fprintf(stderr, " jobs_per_min=%.0f", jpm->value);
	if (fps && !fps->unavailable)
		fprintf(stderr, " forks_per_s=%.0f", fps->value);
	if (sys && !sys->unavailable)
		fprintf(stderr, " sys_pct=%.1f", sys->value);
	if (lock && !lock->unavailable)
		fprintf(stderr, " lock_contentions=%.0f", lock->value);
	if (po->error[0]) { /* a guest's console tail: no escapes to the terminal */
		char safe[240];
		term_safe_copy(safe, sizeof(safe), po->error);
		fprintf(stderr, " (%.200s)", safe);
	}
	fputc('\n', stderr);
}

int suite_parse_shard(struct config *cfg, const char *spec, char *err, size_t errlen)
{
	int i, n, end = 0;
	if (sscanf(spec, "%d/%d%n", &i, &n, &end) != 2 || spec[end] || n < 1 || n > 1000 || i < 1 || i > n) {
		snprintf(err, errlen, "--shard %s: expected i/n with 1 <= i <= n <= 1000", spec);
		return -1;
	}
	cfg->shard_index = i;
	cfg->shard_count = n;
	return 0;
}

int suite_plan(const struct config *cfg, struct point_spec *out, int cap)
{
	int n = 0, k = 0;
	for (int rep = 1; rep <= cfg->repetitions; rep++)
		for (int w = 0; w < cfg->n_workloads; w++)
			for (int u = 0; u < cfg->n_users; u++, k++) {
				if (cfg->shard_count && k % cfg->shard_count != cfg->shard_index - 1)
					continue;
				if (n < cap)
					out[n] = (struct point_spec){ k + 1, cfg->workloads[w], cfg->users[u], rep };
				n++;
			}
	return n;
}

int run_suite(struct config *cfg, const char *db_path, struct suite_result *res)
{
	memset(res, 0, sizeof(*res));
	char load[PATH_MAX], agent[PATH_MAX], err[1200];
	int vm = !strcmp(cfg->target, "vm"), engine = !strcmp(cfg->target, "engine");
	/* the engine target's points are the simulator's, with the same protocol */
	if (engine ? rb_sibling_binary("RMAPBENCH_SIM", "rmapbench-sim", load, sizeof(load)) < 0
		   : rb_sibling_binary("RMAPBENCH_LOAD", "rmapbench-load", load, sizeof(load)) < 0) {
		rb_error("workload binary %s is missing or not executable (run 'make')", load);
		return 1;
	}
	for (int i = 0; engine && i < cfg->n_workloads; i++)
		if (external_workload_find(cfg->workloads[i])) {
			rb_error("%s: %s is not ours: target engine runs our workloads only", cfg->path, cfg->workloads[i]);
			return 1;
		}
	/* The engine's clock charges a walk what a walk over as many VMAs
	 * costs this kernel: measured by calibrate-walk, never a number of ours. */
	struct walk_calib wc = { 0 };
	char wc_source[400] = "", wc_curve[WALK_CURVE_TEXT_MAX + 1] = "";
	if (engine && !config_param(cfg, "sim_vma_ns") && !config_param(cfg, "sim_walk_curve") &&
	    cfg->walk_calibration[0]) {
		/* a shipped calibration: the same answer on any machine */
		char err[600];
		int lr = walk_calib_load(cfg->walk_calibration, &wc, err, sizeof(err));
		if (lr < 0 || !wc.ncurve) {
			if (!lr)
				snprintf(err, sizeof(err), "%s: no curve line (a file from before walks were charged by "
					 "their length)", cfg->walk_calibration);
			rb_error("%s: walk_calibration: %s", cfg->path, err);
			return 1;
		}
		if (walk_calib_curve_text(&wc, wc_curve, sizeof(wc_curve)) < 0)
			wc_curve[0] = 0;
		snprintf(wc_source, sizeof(wc_source), "%s: %d walk lengths up to %ld VMAs, measured on %s",
			 cfg->walk_calibration, wc.ncurve, wc.curve[wc.ncurve - 1].n, wc.release);
	} else if (engine && !config_param(cfg, "sim_vma_ns") && !config_param(cfg, "sim_walk_curve")) {
		char path[PATH_MAX];
		if (walk_calib_ensure(db_path, &wc, path, sizeof(path)) < 0) {
			rb_error("%s: target engine needs the running kernel's walk cost, and it could not be measured "
				 "(above); set sim_vma_ns to run without it",
				 cfg->path);
			return 1;
		}
		if (walk_calib_curve_text(&wc, wc_curve, sizeof(wc_curve)) < 0)
			wc_curve[0] = 0;
		snprintf(wc_source, sizeof(wc_source), "%s: %d walk lengths up to %ld VMAs, measured on %s", path,
			 wc.ncurve, wc.ncurve ? wc.curve[wc.ncurve - 1].n : 0L, wc.release);
	}
	struct kernel_info kernel;
	if (vm) {
		if (rb_sibling_binary("RMAPBENCH_AGENT", "rmapbench-agent", agent, sizeof(agent)) < 0) {
			rb_error("guest agent %s is missing or not executable (run 'make')", agent);
			return 1;
		}
		if (!rb_have_program("qemu-system-x86_64")) {
			rb_error("%s: target vm needs qemu-system-x86_64 (package qemu-system-x86; scripts/deps.sh)",
				 cfg->path);
			return 1;
		}
		for (int i = 0; i < cfg->n_workloads; i++) {
			const struct external_workload *x = external_workload_find(cfg->workloads[i]);
			if (x && x->host_only) {
				rb_error("%s: %s runs on the host target only", cfg->path, x->name);
				return 1;
			}
		}
		if (kernel_prepare(cfg->kernel, &kernel, err, sizeof(err)) < 0) {
			rb_error("%s: kernel = %s: %s", cfg->path, cfg->kernel, err);
			return 1;
		}
	}
	for (int i = 0; i < cfg->n_workloads; i++) {
		const struct external_workload *x = external_workload_find(cfg->workloads[i]);
		if (x && !rb_have_program(x->program)) {
			rb_error("%s: workload %s needs %s, which is not installed (scripts/deps.sh installs it)",
				 cfg->path, x->name, x->program);
			return 1;
		}
	}
	if (cfg->stress_ng[0] && !rb_have_program("stress-ng")) {
		rb_error("%s: stress_ng needs stress-ng, which is not installed (scripts/deps.sh installs it)", cfg->path);
		return 1;
	}
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 1;
	rb_signals_install();
	if (run_lock_take(db_path, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		db_close(&db);
		return 1;
	}
	/* Thousands of runnable users would starve the harness: its lock ring
	 * reader, its deadline and its signal handling. It mostly sleeps, so
	 * running it above the load costs the load nothing; children go back
	 * to nice 0 before exec. Needs root; without it, nothing changes. */
	setpriority(PRIO_PROCESS, 0, -10);
	sandbox_reap_stale();
	char tmp[PATH_MAX], dbdir[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", db_path);
	snprintf(dbdir, sizeof(dbdir), "%s", dirname(tmp));
	swap_reap_stale(dbdir);

	struct run_here here;
	char cfghash[64];
	run_here_init(&here, cfg->target, engine ? cfg->variant : NULL, cfg->name[0] ? cfg->name : "unnamed",
		      cfg->text ? cfg->text : "");
	kernel_config_hash(here.u.release, cfghash, sizeof(cfghash));
	struct run_meta m = here.m;
	m.tag = cfg->tag[0] ? cfg->tag : NULL;
	m.kernel_config_hash = cfghash[0] ? cfghash : NULL;
	if (vm) { /* the kernel is the guest's, and the variant its label */
		m.kernel_release = kernel.release;
		m.kernel_config_hash = kernel.config_hash[0] ? kernel.config_hash : NULL;
		m.variant = kernel.label;
	}
	int64_t run_id;
	if (db_run_begin(&db, &m, &run_id, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		db_close(&db);
		return 1;
	}
	res->run = run_id;
	char rundir[PATH_MAX], name[32];
	snprintf(name, sizeof(name), "run-%lld", (long long)run_id);
	if (results_dir(db_path, name, rundir, sizeof(rundir)) < 0) {
		db_run_end(&db, run_id, "failed", "cannot create the run's directory");
		db_close(&db);
		return 1;
	}

	char swappath[1100] = "";
	if (cfg->swap_mib > 0 && swap_enable(dbdir, cfg->swap_mib, swappath, sizeof(swappath), err, sizeof(err)) < 0) {
		rb_error("%s", err);
		db_run_end(&db, run_id, "failed", err);
		db_close(&db);
		return 1;
	}

	int total = suite_plan(cfg, NULL, 0), failed = 0, recorded = 0;
	struct point_spec *plan = malloc((size_t)(total ? total : 1) * sizeof(*plan));
	if (!plan)
		abort();
	suite_plan(cfg, plan, total);
	struct progress pg;
	progress_init(&pg, total);
	struct point_env env = { .cfg = cfg, .load_path = load, .log_dir = rundir, .pg = &pg,
				 .kernel = vm ? &kernel : NULL, .agent_path = vm ? agent : NULL,
				 .vma_ns = wc.vma_ns, .walk_curve = wc_curve[0] ? wc_curve : NULL,
				 .walk_cost_source = wc_source[0] ? wc_source : NULL };
	const char *status = "done";
	char note[300] = "";
	/* per workload: the smallest users at or below AIM7's line so far, and
	 * the largest above it (stop_after_crossing, refine_crossover) */
	long crossed[8] = { 0 }, above[8] = { 0 };
	int seq = total;
	for (int p = 0; p < total + cfg->n_workloads * cfg->refine_crossover && !rb_interrupted; p++) {
		struct point_spec ps;
		int w = 0;
		if (p < total) {
			ps = plan[p];
			while (w < cfg->n_workloads && strcmp(cfg->workloads[w], ps.workload))
				w++;
			if (cfg->stop_after_crossing && w < 8 && crossed[w] && ps.users > crossed[w])
				continue;
		} else { /* a bisection between the last point above the line and the first below */
			w = (p - total) / cfg->refine_crossover;
			long mid = (above[w] + crossed[w]) / 2;
			if (!crossed[w] || !above[w] || mid <= above[w] || mid >= crossed[w])
				continue;
			ps = (struct point_spec){ ++seq, cfg->workloads[w], mid, 1 };
		}
		struct point_out po;
		progress_point(&pg, p + 1 < total ? p + 1 : total, "%s users=%ld rep %d/%d%s", ps.workload, ps.users,
			       ps.repetition, cfg->repetitions, p < total ? "" : " (refining the crossover)");
		if (vm)
			point_run_vm(&env, &ps, &po);
		else
			point_run(&env, &ps, &po);
		progress_done(&pg);
		summary_line(&ps, &po, p + 1, total, cfg->refine_crossover);
		const struct sample *jpu = ss_find(&po.ss, "jobs_per_min_per_user");
		if (w < 8 && jpu && !jpu->unavailable && !strcmp(po.status, "done")) {
			if (jpu->value <= CROSSOVER_LINE && (!crossed[w] || ps.users < crossed[w]))
				crossed[w] = ps.users;
			if (jpu->value > CROSSOVER_LINE && ps.users > above[w] && (!crossed[w] || ps.users < crossed[w]))
				above[w] = ps.users;
		}
		struct point_rec pr = { ps.seq, ps.workload, ps.users, ps.repetition, po.params, po.status,
					po.error[0] ? po.error : NULL, po.started, po.ended };
		if (db_point_record(&db, run_id, &pr, &po.ss, NULL, err, sizeof(err)) < 0) {
			rb_error("%s", err);
			ss_free(&po.ss);
			free(plan);
			swap_disable(swappath);
			db_run_end(&db, run_id, "failed", "recording a point failed");
			db_close(&db);
			return 1;
		}
		recorded++;
		failed += strcmp(po.status, "done") != 0 && strcmp(po.status, "aborted") != 0;
		ss_free(&po.ss);
		if (cfg->cooldown_s > 0 && !rb_interrupted)
			usleep((useconds_t)(cfg->cooldown_s * 1e6));
	}
	free(plan);
	swap_disable(swappath);
	if (rb_interrupted) {
		status = "aborted";
		snprintf(note, sizeof(note), "interrupted after %d of %d points", recorded, total);
	} else if (failed) {
		status = "failed";
		snprintf(note, sizeof(note), "%d of %d points failed", failed, total);
	}
	db_run_end(&db, run_id, status, note[0] ? note : NULL);
	db_close(&db);
	snprintf(res->status, sizeof(res->status), "%s", status);
	snprintf(res->note, sizeof(res->note), "%s", note);
	snprintf(res->dir, sizeof(res->dir), "%s", rundir);
	return !strcmp(status, "done") ? 0 : !strcmp(status, "aborted") ? 130 : 1;
}
