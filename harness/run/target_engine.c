/* Target engine: each point a run of rmapbench-sim, the userspace rmap
 * engine on a simulated machine in virtual time, with the same protocol
 * as a real point. The walk's cost comes from a calibration of a real
 * kernel (calibrate-walk), never a number of ours: the config's file,
 * else this host's (calibrate-walk keeps it beside the database), else
 * the shipped reference, said on the run. */
#define SHIPPED_WALK_CALIBRATION "paper-2010-walk.tsv"
#include "config.h"
#include "db.h"
#include "external.h"
#include "folded.h"
#include "profile.h"
#include "point.h"
#include "target.h"
#include "workload.h"
#include "target_host.h"
#include "paths.h"
#include "util.h"
#include "walk_calib.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the engine's prepare finds (its point_env's priv), when the config
 * sets no walk cost: the calibration's curve (sim_walk_curve's text; ""
 * when it would not fit: one VMA's cost then) and where it came from;
 * source "" when the config sets its own. */
struct engine_walk {
	char curve[WALK_CURVE_TEXT_MAX + 1];
	double vma_ns;
	char source[400];
};

/* The reference that ships with rmapbench (configs/, as paper-2010.conf
 * names it): the same answer on any machine. */
static int shipped_calibration(struct walk_calib *wc, char *path, size_t plen, char *err, size_t errlen)
{
	char dir[512];
	if (rb_source_dir("RMAPBENCH_CONFIGS", "configs", SHIPPED_WALK_CALIBRATION, dir, sizeof(dir)) < 0) {
		snprintf(err, errlen, "none kept beside the database, and the shipped %s is missing",
			 SHIPPED_WALK_CALIBRATION);
		return -1;
	}
	char real[PATH_MAX];
	snprintf(path, plen, "%s/%s", realpath(dir, real) ? real : dir, SHIPPED_WALK_CALIBRATION);
	if (walk_calib_load(path, wc, err, errlen) < 0)
		return -1;
	return wc->ncurve ? 0 : -1;
}

static int engine_walk_cost(const struct point_env *env, struct engine_walk *w, const char *db_path)
{
	const struct config *cfg = env->cfg;
	struct walk_calib wc = { 0 };
	char path[600], err[600];
	bool shipped = false;
	if (config_param(cfg, "sim_vma_ns") || config_param(cfg, "sim_walk_curve"))
		return 0; /* the config's own */
	if (cfg->walk_calibration[0]) { /* a shipped calibration: the same answer on any machine */
		int lr = walk_calib_load(cfg->walk_calibration, &wc, err, sizeof(err));
		if (lr < 0 || !wc.ncurve) {
			if (!lr)
				snprintf(err, sizeof(err), "%s: no curve line (a file from before walks were charged by "
					 "their length)", cfg->walk_calibration);
			rb_error("%s: walk_calibration: %s", cfg->path, err);
			return -1;
		}
		snprintf(path, sizeof(path), "%s", cfg->walk_calibration);
	} else if (walk_calib_kept(db_path, &wc, path, sizeof(path), err, sizeof(err)) < 0) {
		/* no calibration of this host: the shipped one, said on the run.
		 * Measuring here would fail on a busy machine (its rounds
		 * disagree) and takes minutes; calibrate-walk is for that. */
		if (shipped_calibration(&wc, path, sizeof(path), err, sizeof(err)) < 0) {
			rb_error("%s: target engine needs a walk cost: %s; measure this host's with `rmapbench "
				 "calibrate-walk`, or set sim_vma_ns",
				 cfg->path, err);
			return -1;
		}
		fprintf(stderr, "target engine: no walk calibration of this host: using the shipped reference %s "
				"(measured on %s); `rmapbench calibrate-walk` measures this host's\n",
			path, wc.release);
		shipped = true;
	}
	if (walk_calib_curve_text(&wc, w->curve, sizeof(w->curve)) < 0)
		w->curve[0] = 0;
	w->vma_ns = wc.vma_ns;
	snprintf(w->source, sizeof(w->source), "%s%s: %d walk lengths up to %ld VMAs, measured on %s",
		 shipped ? "the shipped reference " : "", path, wc.ncurve, wc.ncurve ? wc.curve[wc.ncurve - 1].n : 0L,
		 wc.release);
	return 0;
}

static int engine_prepare(struct point_env *env, const char *db_path)
{
	const struct config *cfg = env->cfg;
	if (rb_sibling_binary("RMAPBENCH_SIM", "rmapbench-sim", env->load_path, sizeof(env->load_path)) < 0) {
		rb_error("workload binary %s is missing or not executable (run 'make')", env->load_path);
		return -1;
	}
	for (int i = 0; i < cfg->n_workloads; i++) {
		const struct workload *wl = workload_find(cfg->workloads[i]);
		if (!wl) {
			rb_error("%s: %s is not ours: target engine runs our workloads only", cfg->path, cfg->workloads[i]);
			return -1;
		}
		if (wl->native_only) {
			rb_error("%s: workload %s runs only on the host and vm targets (the engine does not model its syscalls)",
				 cfg->path, cfg->workloads[i]);
			return -1;
		}
	}
	struct engine_walk *w = calloc(1, sizeof(*w));
	if (!w)
		abort();
	env->priv = w;
	return engine_walk_cost(env, w, db_path) < 0 || target_check_programs(env) < 0 ? -1 : 0;
}

static void engine_describe(const struct point_env *env, struct run_meta *m)
{
	m->variant = env->cfg->variant;
}

static bool seed_key(const char *key)
{
	return !strcmp(key, "seed"); /* given per repetition */
}

static void engine_plan(const struct point_env *env, const struct point_spec *ps, const char *out_path,
			struct point_cmd *c)
{
	(void)out_path;
	const struct config *cfg = env->cfg;
	const struct engine_walk *w = env->priv;
	point_cmd_ours(c, env->load_path, ps->workload, ps->users);
	point_cmd_add(c, "variant=%s", cfg->variant);
	if (w->source[0] && w->curve[0])
		point_cmd_add(c, "sim_walk_curve=%s", w->curve);
	else if (w->source[0])
		point_cmd_add(c, "sim_vma_ns=%.3f", w->vma_ns);
	/* a simulation repeats itself exactly: each repetition draws its
	 * jobs from a seed of its own, as a real machine's runs differ */
	const char *seed = config_param(cfg, "seed");
	unsigned long base = seed ? strtoul(seed, NULL, 10) : 1;
	point_cmd_add(c, "seed=%lu", base + (unsigned long)ps->repetition - 1);
	if (cfg->profile)
		point_cmd_add(c, "sim_profile=1");
	point_cmd_params(c, cfg, seed_key);
}

/* The simulator's profile ("sim_profile_N NS STACK" attributes) as the
 * profile collector's rows and stacks: one set of rows for every target,
 * in percent of the point's virtual task time. */
static void engine_profile(struct sample_set *ss)
{
	struct folded f = { 0 };
	for (size_t i = 0; i < ss->nattrs; i++) {
		if (strncmp(ss->attrs[i].key, "sim_profile_", 12))
			continue;
		char line[sizeof(ss->attrs[i].value) + 8];
		const char *v = ss->attrs[i].value, *sp = strchr(v, ' ');
		if (sp) /* "NS STACK" to folded's "STACK NS" */
			snprintf(line, sizeof(line), "%s %.*s", sp + 1, (int)(sp - v), v);
		if (!sp || folded_add_line(&f, line) < 0)
			ss_attr(ss, "profile_bad_line", "%.100s", v);
	}
	if (f.total > 0) {
		profile_rows(ss, &f);
		ss_attr(ss, "profile_event", "the simulator's virtual time, every task's, on and off CPU");
	}
	folded_free(&f);
}

/* the simulator reports its machine's figures: the host's collectors
 * would measure the simulator itself; the walk's cost says where it came
 * from on every point */
static int engine_run(const struct point_env *env, const struct point_spec *ps, struct point_out *out)
{
	const struct engine_walk *w = env->priv;
	int rc = point_run(env, ps, engine_plan, false, out);
	if (env->cfg->profile)
		engine_profile(&out->ss);
	if (w->source[0])
		ss_attr(&out->ss, "sim_walk_cost_source", "%s", w->source);
	return rc;
}

const struct target target_engine = {
	.name = "engine",
	.summary = "the userspace rmap engine: a simulated machine in virtual time, one design a run",
	.prepare = engine_prepare,
	.describe = engine_describe,
	.run = engine_run,
};
