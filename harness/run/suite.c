/* A suite: plans the matrix (repetition-major, so that a drift over the
 * run does not line up with one users count), runs each point and records
 * it in one transaction. */
#include "suite.h"
#include "point.h"
#include "escape.h"
#include "progress.h"
#include "signals.h"
#include "suite_record.h"
#include "target.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* AIM7's line, jobs/min per user (harness/compare/crossover.h says it too) */
#define CROSSOVER_LINE 10.0

/* What says the kernel broke: its own reports (collect_klog.c) and the
 * oopshunt workload's checks; said loudly whatever the status. */
static void errors_said(const struct point_out *po)
{
	static const char *const wrong[] = { "kernel_error_reports", "oopshunt_wrong_pages",
					     "oopshunt_unreclaimable_pages" };
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		const struct sample *m = ss_find(&po->ss, wrong[i]);
		if (m && !m->unavailable && m->value > 0)
			fprintf(stderr, " %s=%.0f!", wrong[i], m->value);
	}
	const struct attr *first = ss_attr_find(&po->ss, "kernel_error_1");
	if (first) {
		char safe[240];
		term_safe_copy(safe, sizeof(safe), first->value);
		fprintf(stderr, " [%.160s]", safe);
	}
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
	errors_said(po);
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

/* Where each workload crosses AIM7's line so far: the smallest users at
 * or below it and the largest above (stop_after_crossing), and the
 * bisections between them after the plan (refine_crossover). */
struct crossing {
	long crossed[8], above[8];
	int seq;
};

/* Point p of the run (the plan, then each workload's bisections) into ps:
 * 0 when it is passed over. */
static int crossing_next(const struct config *cfg, const struct point_spec *plan, int total, struct crossing *cx,
			 int p, struct point_spec *ps, int *w)
{
	*w = 0;
	if (p < total) {
		*ps = plan[p];
		while (*w < cfg->n_workloads && strcmp(cfg->workloads[*w], ps->workload))
			(*w)++;
		return !(cfg->stop_after_crossing && *w < 8 && cx->crossed[*w] && ps->users > cx->crossed[*w]);
	}
	*w = (p - total) / cfg->refine_crossover;
	long mid = (cx->above[*w] + cx->crossed[*w]) / 2;
	if (!cx->crossed[*w] || !cx->above[*w] || mid <= cx->above[*w] || mid >= cx->crossed[*w])
		return 0;
	*ps = (struct point_spec){ ++cx->seq, cfg->workloads[*w], mid, 1 };
	return 1;
}

static void crossing_note(struct crossing *cx, int w, const struct point_spec *ps, const struct point_out *po)
{
	const struct sample *jpu = ss_find(&po->ss, "jobs_per_min_per_user");
	if (w >= 8 || !jpu || jpu->unavailable || strcmp(po->status, "done"))
		return;
	if (jpu->value <= CROSSOVER_LINE && (!cx->crossed[w] || ps->users < cx->crossed[w]))
		cx->crossed[w] = ps->users;
	if (jpu->value > CROSSOVER_LINE && ps->users > cx->above[w] && (!cx->crossed[w] || ps->users < cx->crossed[w]))
		cx->above[w] = ps->users;
}

static void env_free(struct point_env *env)
{
	free(env->priv);
	free(env);
}

/* The config's target, prepared: NULL having said why. */
static struct point_env *suite_prepare(struct config *cfg, const char *db_path)
{
	const struct target *t = target_find(cfg->target);
	struct point_env *env = calloc(1, sizeof(*env));
	if (!env)
		abort();
	*env = (struct point_env){ .cfg = cfg, .target = t };
	if (!t)
		rb_error("%s: target = %s: unknown (%s)", cfg->path, cfg->target, target_names());
	if (!t || t->prepare(env, db_path) < 0) {
		env_free(env);
		return NULL;
	}
	return env;
}

int run_suite(struct config *cfg, struct db *db, struct suite_result *res)
{
	memset(res, 0, sizeof(*res));
	struct point_env *env = suite_prepare(cfg, db->path);
	struct suite_run sr;
	if (!env)
		return 1;
	if (suite_begin(&sr, env, db, res) < 0) {
		env_free(env);
		return 1;
	}
	int total = suite_plan(cfg, NULL, 0), failed = 0, recorded = 0, rc = 0;
	struct point_spec *plan = malloc((size_t)(total ? total : 1) * sizeof(*plan));
	if (!plan)
		abort();
	suite_plan(cfg, plan, total);
	struct progress pg;
	progress_init(&pg, total);
	env->log_dir = sr.rundir;
	env->pg = &pg;
	struct crossing cx = { .seq = total };
	for (int p = 0; p < total + cfg->n_workloads * cfg->refine_crossover && !rb_interrupted; p++) {
		struct point_spec ps;
		struct point_out po;
		int w;
		if (!crossing_next(cfg, plan, total, &cx, p, &ps, &w))
			continue;
		progress_point(&pg, p + 1 < total ? p + 1 : total, "%s users=%ld rep %d/%d%s", ps.workload, ps.users,
			       ps.repetition, cfg->repetitions, p < total ? "" : " (refining the crossover)");
		env->target->run(env, &ps, &po);
		progress_done(&pg);
		summary_line(&ps, &po, p + 1, total, cfg->refine_crossover);
		crossing_note(&cx, w, &ps, &po);
		rc = suite_record_point(&sr, &ps, &po);
		ss_free(&po.ss);
		if (rc < 0)
			break;
		recorded++;
		failed += strcmp(po.status, "done") != 0 && strcmp(po.status, "aborted") != 0;
		if (cfg->cooldown_s > 0 && !rb_interrupted)
			usleep((useconds_t)(cfg->cooldown_s * 1e6));
	}
	free(plan);
	env_free(env);
	rc = suite_end(&sr, rc < 0 ? -1 : failed, recorded, total, res);
	return rc;
}
