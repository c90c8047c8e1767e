/* One point: a workload at a users count, caged, measured, reaped.
 *
 *   fork ──► child: own process group, PDEATHSIG, rlimits, waits on a gate
 *   parent: child into the cgroup, collectors attach, gate opens, child execs
 *   read its protocol lines until EOF (watching signals and the deadline)
 *   wait4 (the rusage of the whole reaped tree), collectors stop
 *   kill whatever is left in the cgroup, remove the cgroup
 */
#include "point.h"
#include "config.h"
#include "collector.h"
#include "external.h"
#include "progress.h"
#include "sandbox.h"
#include "signals.h"
#include "stressng.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static double param_double(const struct config *cfg, const char *key, double dflt)
{
	const char *v = config_param(cfg, key);
	return v ? strtod(v, NULL) : dflt;
}

/* The last lines of the point's log, for the error column. */
static void log_tail(const char *path, char *buf, size_t len)
{
	char *s = rb_read_file(path, NULL);
	if (!s) {
		buf[0] = 0;
		return;
	}
	size_t n = strlen(s);
	const char *start = n > len - 1 ? s + n - (len - 1) : s;
	snprintf(buf, len, "%s", start);
	rb_trim(buf);
	free(s);
}

static void kill_tree(struct sandbox *sb, pid_t pid)
{
	killpg(pid, SIGKILL);
	kill(pid, SIGKILL);
	sandbox_kill_all(sb);
}

/* What one point runs and writes: its command and files, its cage, the
 * collectors attached to it. */
struct point_proc {
	struct point_cmd cmd;
	char logpath[1100], yaml[1100], sng_yaml[1100];
	const struct external_workload *ext;
	struct sandbox sb;
	struct companion comp;
	struct coll_ctx cctx[16];
	const struct collector *used[16];
	int nc;
	long users;
	bool collect;
	pid_t pid;
	int outfd, killed, timed_out;
};

static void point_plan(const struct point_env *env, const struct point_spec *ps, point_plan_fn *plan,
		       struct point_proc *pp, struct point_out *out)
{
	snprintf(pp->logpath, sizeof(pp->logpath), "%s/point-%03d.log", env->log_dir, ps->seq);
	snprintf(pp->yaml, sizeof(pp->yaml), "%s/point-%03d-%s.out", env->log_dir, ps->seq, ps->workload);
	snprintf(pp->sng_yaml, sizeof(pp->sng_yaml), "%s/point-%03d-companion.yaml", env->log_dir, ps->seq);
	pp->ext = external_workload_find(ps->workload);
	pp->users = ps->users;
	point_cmd_init(&pp->cmd, out->params, sizeof(out->params));
	plan(env, ps, pp->yaml, &pp->cmd);
}

static void point_cage(const struct point_env *env, const struct point_spec *ps, struct point_proc *pp)
{
	const struct config *cfg = env->cfg;
	char tag[64];
	long mem = cfg->mem_limit_mib ? cfg->mem_limit_mib : sandbox_default_mem_mib();
	long pids = cfg->pids_max ? cfg->pids_max : sandbox_default_pids(ps->users);
	snprintf(tag, sizeof(tag), "h%d-p%d", (int)getpid(), ps->seq);
	sandbox_create(&pp->sb, tag, mem, pids);
}

/* The companion stress-ng, if the config asks for one. */
static void point_companion(const struct config *cfg, struct point_proc *pp)
{
	if (!cfg->stress_ng[0])
		return;
	double dur = param_double(cfg, "duration_s", 0);
	if (companion_start(&pp->comp, cfg->stress_ng, pp->sng_yaml, dur > 0 ? dur + 60 : cfg->point_timeout_s,
			    &pp->sb) < 0)
		rb_warn("stress-ng companion did not start: %s", strerror(errno));
}

/* The point's process, held at a gate until the cage and the collectors
 * are in place; its stdout is pp->outfd. -1 with out->error. */
static int point_spawn(struct point_proc *pp, struct point_out *out, int *gate_w)
{
	int outp[2], gate[2];
	int logfd = rb_create_file(pp->logpath, 0644);
	unlink(pp->yaml); /* stress-ng opens its -Y files by name */
	unlink(pp->sng_yaml);
	if (logfd < 0 || pipe2(outp, O_CLOEXEC) < 0 || pipe2(gate, O_CLOEXEC) < 0) {
		snprintf(out->error, sizeof(out->error), "%s: %s", pp->logpath, strerror(errno));
		return -1;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0); /* a terminal's Ctrl-C reaches the harness only */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		dup2(outp[1], 1);
		dup2(logfd, 2);
		sandbox_rlimits(&pp->sb);
		setpriority(PRIO_PROCESS, 0, 0); /* the harness runs above the load; the load does not */
		char go = 0;
		while (read(gate[0], &go, 1) < 0 && errno == EINTR)
			;
		if (go != 'g')
			_exit(126); /* the harness gave up before release */
		if (pp->ext)
			execvp(pp->cmd.argv[0], pp->cmd.argv);
		else
			execv(pp->cmd.argv[0], pp->cmd.argv);
		fprintf(stderr, "rmapbench: exec %s: %s\n", pp->cmd.argv[0], strerror(errno));
		_exit(127);
	}
	close(outp[1]);
	close(gate[0]);
	close(logfd);
	if (pid < 0) {
		snprintf(out->error, sizeof(out->error), "fork: %s", strerror(errno));
		close(outp[0]);
		close(gate[1]);
		return -1;
	}
	setpgid(pid, pid);
	if (sandbox_attach(&pp->sb, pid) < 0)
		rb_warn("cgroup attach failed: %s", strerror(errno));
	pp->pid = pid;
	pp->outfd = outp[0];
	*gate_w = gate[1];
	return 0;
}

static void point_collectors_start(const struct point_env *env, struct point_proc *pp, struct point_out *out)
{
	const struct config *cfg = env->cfg;
	for (int i = 0; collectors[i] && pp->collect && pp->nc < (int)ARRAY_SIZE(pp->used); i++) {
		if (!config_has_collector(cfg, collectors[i]->name))
			continue;
		pp->used[pp->nc] = collectors[i];
		pp->cctx[pp->nc] = (struct coll_ctx){ .pid = pp->pid, .out = &out->ss, .pfm_events = cfg->pfm_events,
						      .n_pfm_events = cfg->n_pfm_events,
						      .profile_hz = cfg->profile ? cfg->profile_hz : 0 };
		pp->used[pp->nc]->start(&pp->cctx[pp->nc]);
		pp->nc++;
	}
}

/* The point's protocol lines until EOF, watching signals and the deadline. */
static void point_read(const struct point_env *env, struct point_proc *pp, struct point_out *out, double t0)
{
	double deadline = t0 + env->cfg->point_timeout_s + 30;
	char line[1024], buf[4096];
	size_t ll = 0;
	for (;;) {
		struct pollfd pfd = { .fd = pp->outfd, .events = POLLIN };
		int r = poll(&pfd, 1, 250);
		if (rb_stop_now && !pp->killed) {
			kill_tree(&pp->sb, pp->pid);
			pp->killed = 1;
		}
		if (!pp->killed && rb_now() > deadline) {
			kill_tree(&pp->sb, pp->pid);
			pp->killed = pp->timed_out = 1;
		}
		progress_tick(env->pg, rb_now() - t0);
		if (r <= 0)
			continue;
		ssize_t n = read(pp->outfd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n' && ll < sizeof(line) - 1) {
				line[ll++] = buf[i];
				continue;
			}
			line[ll] = 0;
			ll = 0;
			if (!pp->ext && line[0])
				ss_parse_line(&out->ss, line, "");
		}
	}
	close(pp->outfd);
}

/* wait4 (the rusage of the whole reaped tree), then every collector stops
 * with it and what the point wrote is read. */
static int point_reap(struct point_proc *pp, struct point_out *out, double t0)
{
	int st = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	while (wait4(pp->pid, &st, 0, &ru) < 0) {
		if (errno != EINTR)
			break;
		if (rb_stop_now && !pp->killed) {
			kill_tree(&pp->sb, pp->pid);
			pp->killed = 1;
		}
	}
	double wall = rb_now() - t0;
	for (int i = 0; i < pp->nc; i++) {
		pp->cctx[i].ru = ru;
		pp->cctx[i].wall_s = wall;
		pp->used[i]->stop(&pp->cctx[i]);
	}
	if (pp->ext && pp->ext->collect(pp->yaml, pp->users, &out->ss) < 0 && !pp->killed)
		snprintf(out->error, sizeof(out->error), "%s wrote no metrics to %s", pp->ext->program, pp->yaml);
	return st;
}

/* Whatever is left in the cage is killed and the cage removed. */
static void point_uncage(struct point_proc *pp, struct point_out *out)
{
	if (companion_stop(&pp->comp, &out->ss) < 0 && !pp->killed)
		snprintf(out->error, sizeof(out->error), "%s", pp->comp.why);
	sandbox_report(&pp->sb, &out->ss);
	int left = sandbox_kill_all(&pp->sb);
	if (left)
		ss_attr(&out->ss, "processes_left", "%d survived SIGKILL in the cgroup", left);
	sandbox_destroy(&pp->sb);
}

static void point_status(const struct config *cfg, const struct point_proc *pp, int st, struct point_out *out)
{
	char tail[700];
	if (pp->timed_out) {
		snprintf(out->error, sizeof(out->error), "point exceeded point_timeout_s=%.0f: killed",
			 cfg->point_timeout_s);
	} else if (pp->killed) {
		snprintf(out->status, sizeof(out->status), "aborted");
		snprintf(out->error, sizeof(out->error), "stopped by a signal to the harness");
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !out->error[0]) {
		snprintf(out->status, sizeof(out->status), "done");
	} else if (!out->error[0]) {
		log_tail(pp->logpath, tail, sizeof(tail));
		if (WIFEXITED(st))
			snprintf(out->error, sizeof(out->error), "exit status %d: %s", WEXITSTATUS(st),
				 tail[0] ? tail : "(no output)");
		else
			snprintf(out->error, sizeof(out->error), "killed by signal %s: %s", strsignal(WTERMSIG(st)),
				 tail[0] ? tail : "(no output)");
	}
}

int point_run(const struct point_env *env, const struct point_spec *ps, point_plan_fn *plan, bool collect,
	      struct point_out *out)
{
	static struct point_proc pp;
	int gate;
	memset(out, 0, sizeof(*out));
	memset(&pp, 0, sizeof(pp));
	snprintf(out->status, sizeof(out->status), "failed");
	rb_utc_now(out->started, sizeof(out->started));
	pp.collect = collect;
	point_plan(env, ps, plan, &pp, out);
	point_cage(env, ps, &pp);
	point_companion(env->cfg, &pp);
	if (point_spawn(&pp, out, &gate) < 0) {
		companion_stop(&pp.comp, &out->ss);
		sandbox_destroy(&pp.sb);
	} else {
		point_collectors_start(env, &pp, out);
		double t0 = rb_now();
		if (write(gate, "g", 1) != 1)
			rb_warn("gate: %s", strerror(errno));
		close(gate);
		point_read(env, &pp, out, t0);
		int st = point_reap(&pp, out, t0);
		point_uncage(&pp, out);
		point_status(env->cfg, &pp, st, out);
	}
	rb_utc_now(out->ended, sizeof(out->ended));
	return strcmp(out->status, "done") ? -1 : 0;
}
