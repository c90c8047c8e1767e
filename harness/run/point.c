/* One point: a workload at a users count, caged, measured, reaped.
 *
 *   fork ──► child: own process group, PDEATHSIG, rlimits, waits on a gate
 *   parent: child into the cgroup, collectors attach, gate opens, child execs
 *   read its protocol lines until EOF (watching signals and the deadline)
 *   wait4 (the rusage of the whole reaped tree), collectors stop
 *   kill whatever is left in the cgroup, remove the cgroup
 */
#include "point.h"
#include "collector.h"
#include "external.h"
#include "progress.h"
#include "sandbox.h"
#include "signals.h"
#include "sim.h"
#include "stressng.h"
#include "util.h"

#include <errno.h>
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

int point_argv(const struct point_env *env, const struct point_spec *ps, char **argv, char store[][POINT_ARG_LEN],
	       char *params, size_t plen)
{
	const struct config *cfg = env->cfg;
	int n = 0, s = 0;
	size_t used = 0;
	argv[n++] = (char *)env->load_path;
	argv[n++] = (char *)ps->workload;
	snprintf(store[s], POINT_ARG_LEN, "users=%ld", ps->users);
	argv[n++] = store[s++];
	used += (size_t)snprintf(params + used, plen - used, "users=%ld", ps->users);
	int has_max = 0, engine = !strcmp(cfg->target, "engine");
	if (engine) { /* the simulator's design, and the kernel's walk cost unless the config sets one */
		snprintf(store[s], POINT_ARG_LEN, "variant=%s", cfg->variant);
		argv[n++] = store[s];
		used += (size_t)snprintf(params + used, plen - used, " %s", store[s]);
		s++;
		if (env->walk_cost_source) {
			if (env->walk_curve)
				snprintf(store[s], POINT_ARG_LEN, "sim_walk_curve=%s", env->walk_curve);
			else
				snprintf(store[s], POINT_ARG_LEN, "sim_vma_ns=%.3f", env->vma_ns);
			argv[n++] = store[s];
			used += (size_t)snprintf(params + used, plen - used, " %s", store[s]);
			s++;
		}
		/* a simulation repeats itself exactly: each repetition draws its
		 * jobs from a seed of its own, as a real machine's runs differ */
		const char *seed = config_param(cfg, "seed");
		unsigned long base = seed ? strtoul(seed, NULL, 10) : 1;
		snprintf(store[s], POINT_ARG_LEN, "seed=%lu", base + (unsigned long)ps->repetition - 1);
		argv[n++] = store[s];
		used += (size_t)snprintf(params + used, plen - used, " %s", store[s]);
		s++;
	}
	for (int i = 0; i < cfg->n_params && n < POINT_MAX_ARGS - 3; i++) {
		if (!engine && sim_param_known(cfg->params[i][0]))
			continue; /* the machine model's: nothing to a real kernel */
		if (engine && !strcmp(cfg->params[i][0], "seed"))
			continue; /* given per repetition above */
		snprintf(store[s], POINT_ARG_LEN, "%s=%s", cfg->params[i][0], cfg->params[i][1]);
		has_max |= !strcmp(cfg->params[i][0], "max_s");
		argv[n++] = store[s];
		if (used < plen)
			used += (size_t)snprintf(params + used, plen - used, " %s", store[s]);
		s++;
	}
	if (!has_max) { /* the workload's own watchdog fires before ours */
		snprintf(store[s], POINT_ARG_LEN, "max_s=%.0f", cfg->point_timeout_s);
		argv[n++] = store[s++];
	}
	argv[n] = NULL;
	return 0;
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

int point_run(const struct point_env *env, const struct point_spec *ps, struct point_out *out)
{
	const struct config *cfg = env->cfg;
	char *argv[POINT_MAX_ARGS + 8];
	static char store[POINT_MAX_ARGS + 8][POINT_ARG_LEN];
	char logpath[1100], yaml[1100], tag[64], sng_yaml[1100];
	memset(out, 0, sizeof(*out));
	snprintf(out->status, sizeof(out->status), "failed");
	rb_utc_now(out->started, sizeof(out->started));

	snprintf(logpath, sizeof(logpath), "%s/point-%03d.log", env->log_dir, ps->seq);
	snprintf(yaml, sizeof(yaml), "%s/point-%03d-%s.out", env->log_dir, ps->seq, ps->workload);
	snprintf(sng_yaml, sizeof(sng_yaml), "%s/point-%03d-companion.yaml", env->log_dir, ps->seq);
	const struct external_workload *ext = external_workload_find(ps->workload);
	if (ext)
		ext->argv(cfg, ps->users, yaml, argv, store, out->params, sizeof(out->params));
	else
		point_argv(env, ps, argv, store, out->params, sizeof(out->params));

	long mem = cfg->mem_limit_mib ? cfg->mem_limit_mib : sandbox_default_mem_mib();
	long pids = cfg->pids_max ? cfg->pids_max : sandbox_default_pids(ps->users);
	struct sandbox sb;
	snprintf(tag, sizeof(tag), "h%d-p%d", (int)getpid(), ps->seq);
	sandbox_create(&sb, tag, mem, pids);

	struct companion comp = { 0 };
	if (cfg->stress_ng[0]) {
		double dur = param_double(cfg, "duration_s", 0);
		if (companion_start(&comp, cfg->stress_ng, sng_yaml, dur > 0 ? dur + 60 : cfg->point_timeout_s, &sb) < 0)
			rb_warn("stress-ng companion did not start: %s", strerror(errno));
	}

	int outp[2], gate[2];
	int logfd = rb_create_file(logpath, 0644);
	/* stress-ng opens its -Y files by name */
	unlink(yaml);
	unlink(sng_yaml);
	if (logfd < 0 || pipe2(outp, O_CLOEXEC) < 0 || pipe2(gate, O_CLOEXEC) < 0) {
		snprintf(out->error, sizeof(out->error), "%s: %s", logpath, strerror(errno));
		companion_stop(&comp, &out->ss);
		sandbox_destroy(&sb);
		goto done;
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
		sandbox_rlimits(&sb);
		setpriority(PRIO_PROCESS, 0, 0); /* the harness runs above the load; the load does not */
		char go = 0;
		while (read(gate[0], &go, 1) < 0 && errno == EINTR)
			;
		if (go != 'g')
			_exit(126); /* the harness gave up before release */
		if (ext)
			execvp(argv[0], argv);
		else
			execv(argv[0], argv);
		fprintf(stderr, "rmapbench: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(outp[1]);
	close(gate[0]);
	close(logfd);
	if (pid < 0) {
		snprintf(out->error, sizeof(out->error), "fork: %s", strerror(errno));
		close(outp[0]);
		close(gate[1]);
		companion_stop(&comp, &out->ss);
		sandbox_destroy(&sb);
		goto done;
	}
	setpgid(pid, pid);
	if (sandbox_attach(&sb, pid) < 0) {
		rb_warn("cgroup attach failed: %s", strerror(errno));
	}

	struct coll_ctx cctx[8];
	const struct collector *used[8];
	int nc = 0;
	/* On the engine target the simulator reports its machine's figures:
	 * the host's collectors would measure the simulator itself. */
	for (int i = 0; collectors[i] && strcmp(cfg->target, "engine"); i++) {
		if (!config_has_collector(cfg, collectors[i]->name))
			continue;
		used[nc] = collectors[i];
		cctx[nc] = (struct coll_ctx){ .pid = pid, .out = &out->ss, .pfm_events = cfg->pfm_events,
					      .n_pfm_events = cfg->n_pfm_events };
		used[nc]->start(&cctx[nc]);
		nc++;
	}

	double t0 = rb_now(), deadline = t0 + cfg->point_timeout_s + 30;
	if (write(gate[1], "g", 1) != 1)
		rb_warn("gate: %s", strerror(errno));
	close(gate[1]);

	char line[1024];
	size_t ll = 0;
	int killed = 0, timed_out = 0;
	for (;;) {
		struct pollfd pfd = { .fd = outp[0], .events = POLLIN };
		int r = poll(&pfd, 1, 250);
		if (rb_stop_now && !killed) {
			kill_tree(&sb, pid);
			killed = 1;
		}
		if (!killed && rb_now() > deadline) {
			kill_tree(&sb, pid);
			killed = timed_out = 1;
		}
		progress_tick(env->pg, rb_now() - t0);
		if (r <= 0)
			continue;
		char buf[4096];
		ssize_t n = read(outp[0], buf, sizeof(buf));
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
			if (!ext && line[0])
				ss_parse_line(&out->ss, line, "");
		}
	}
	close(outp[0]);

	int st = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR)
			break;
		if (rb_stop_now && !killed) {
			kill_tree(&sb, pid);
			killed = 1;
		}
	}
	double wall = rb_now() - t0;
	for (int i = 0; i < nc; i++) {
		cctx[i].ru = ru;
		cctx[i].wall_s = wall;
		used[i]->stop(&cctx[i]);
	}
	if (ext && ext->collect(yaml, ps->users, &out->ss) < 0 && !killed)
		snprintf(out->error, sizeof(out->error), "%s wrote no metrics to %s", ext->program, yaml);
	if (companion_stop(&comp, &out->ss) < 0 && !killed)
		snprintf(out->error, sizeof(out->error), "%s", comp.why);
	sandbox_report(&sb, &out->ss);
	if (env->walk_cost_source)
		ss_attr(&out->ss, "sim_walk_cost_source", "%s", env->walk_cost_source);
	int left = sandbox_kill_all(&sb);
	if (left)
		ss_attr(&out->ss, "processes_left", "%d survived SIGKILL in the cgroup", left);
	sandbox_destroy(&sb);

	if (timed_out) {
		snprintf(out->error, sizeof(out->error), "point exceeded point_timeout_s=%.0f: killed",
			 cfg->point_timeout_s);
	} else if (killed) {
		snprintf(out->status, sizeof(out->status), "aborted");
		snprintf(out->error, sizeof(out->error), "stopped by a signal to the harness");
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !out->error[0]) {
		snprintf(out->status, sizeof(out->status), "done");
	} else if (!out->error[0]) {
		char tail[700];
		log_tail(logpath, tail, sizeof(tail));
		snprintf(out->error, sizeof(out->error), "%s %s: %s", WIFEXITED(st) ? "exit status" : "killed by signal",
			 WIFEXITED(st) ? "" : strsignal(WTERMSIG(st)), tail[0] ? tail : "(no output)");
		if (WIFEXITED(st)) {
			char tmp[sizeof(out->error)];
			snprintf(tmp, sizeof(tmp), "exit status %d: %s", WEXITSTATUS(st), tail[0] ? tail : "(no output)");
			snprintf(out->error, sizeof(out->error), "%s", tmp);
		}
	}
done:
	rb_utc_now(out->ended, sizeof(out->ended));
	return strcmp(out->status, "done") ? -1 : 0;
}
