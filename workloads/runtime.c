/* The workload runtime: forks the users, holds them on a start barrier,
 * chains PR_SET_PDEATHSIG so that killing any ancestor kills every
 * descendant, runs a watchdog, reaps everything, and reports.
 *
 * Exit paths and who reaps what:
 *   normal end      every user is waited for here; job children by their user
 *   SIGINT/SIGTERM  users are told to stop, then SIGKILLed after a grace period
 *   watchdog        (max_s) users SIGKILLed, exit status 3
 *   parent killed   PDEATHSIG=SIGKILL here, and in every user and job child
 * We are also a child subreaper, so a job child orphaned by a user that died
 * is ours to reap, not init's.
 */
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_term, got_alarm;
static volatile int *stop_flag;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
	if (stop_flag)
		*stop_flag = 1;
}

static void on_alarm(int sig)
{
	(void)sig;
	got_alarm = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void wl_metric(const char *name, double value, const char *unit)
{
	printf("metric %s %.9g %s\n", name, value, unit);
}

void wl_unavailable(const char *name, const char *reason)
{
	printf("unavailable %s %s\n", name, reason);
}


unsigned wl_rand(unsigned *s)
{
	/* xorshift32: deterministic per seed, no libc state shared across fork */
	unsigned x = *s ? *s : 2463534242u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

char *wl_map(const struct wl_ctx *ctx, size_t len)
{
	return ctx->be->map(ctx, len);
}

void wl_unmap(const struct wl_ctx *ctx, char *p, size_t len)
{
	ctx->be->unmap(ctx, p, len);
}

void wl_write(const struct wl_ctx *ctx, char *p, unsigned char v)
{
	ctx->be->write(ctx, p, v);
}

void wl_touch(const struct wl_ctx *ctx, char *p, size_t len, unsigned char v)
{
	for (size_t off = 0; off < len; off += ctx->page_size)
		ctx->be->write(ctx, p + off, v);
}

uint64_t wl_read(const struct wl_ctx *ctx, const char *p, size_t len)
{
	uint64_t sum = 0;
	for (size_t off = 0; off < len; off += ctx->page_size)
		sum += ctx->be->read(ctx, p + off);
	return sum;
}

void wl_compute(const struct wl_ctx *ctx, long iters)
{
	ctx->be->compute(ctx, iters);
}

int wl_fork_child(const struct wl_ctx *ctx, void (*fn)(const struct wl_ctx *, unsigned), unsigned arg)
{
	return ctx->be->fork_child(ctx, fn, arg);
}

void wl_file_read(const struct wl_ctx *ctx, size_t off, size_t len)
{
	ctx->be->file_read(ctx, off, len);
}

int wl_should_stop(const struct wl_ctx *ctx, const struct wl_slot *slot)
{
	if (*ctx->stop)
		return 1;
	return ctx->p.duration_s <= 0 && slot->jobs >= (uint64_t)ctx->p.jobs_per_user;
}

/* Every process we create dies with its parent: the chain that makes a
 * SIGKILL of the harness take the whole tree with it. */
static int die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return -1;
	if (getppid() != parent) /* the parent died before prctl took effect */
		_exit(99);
	return 0;
}

static void oom_first(void)
{
	FILE *f = fopen("/proc/self/oom_score_adj", "w");
	if (f) {
		fputs("1000", f);
		fclose(f);
	}
}

static char *native_map(const struct wl_ctx *ctx, size_t len)
{
	(void)ctx;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void native_unmap(const struct wl_ctx *ctx, char *p, size_t len)
{
	(void)ctx;
	munmap(p, len);
}

static void native_write(const struct wl_ctx *ctx, char *p, unsigned char v)
{
	(void)ctx;
	*(volatile char *)p = (char)v;
}

static unsigned char native_read(const struct wl_ctx *ctx, const char *p)
{
	(void)ctx;
	return (unsigned char)*(const volatile char *)p;
}

static void native_compute(const struct wl_ctx *ctx, long iters)
{
	(void)ctx;
	volatile double x = 1.0;
	for (long i = 0; i < iters; i++)
		x = x * 1.0000001 + 0.5 / (x + 1.0);
}

static int native_fork_child(const struct wl_ctx *ctx, void (*fn)(const struct wl_ctx *, unsigned), unsigned arg)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		die_with_parent(parent);
		fn(ctx, arg);
		_exit(0);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return errno;
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : ECHILD;
}

/* An unlinked file in TMPDIR (or /tmp), sparse: its reads fill the page
 * cache without a disk write first. */
static int native_file_create(struct wl_ctx *ctx, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/rmapbench-file-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	if (ftruncate(fd, (off_t)len) < 0) {
		close(fd);
		return -1;
	}
	ctx->file_fd = fd;
	ctx->file_len = len;
	return 0;
}

static void native_file_read(const struct wl_ctx *ctx, size_t off, size_t len)
{
	static char buf[1 << 16];
	for (size_t done = 0; done < len;) {
		size_t n = len - done < sizeof(buf) ? len - done : sizeof(buf);
		ssize_t got = pread(ctx->file_fd, buf, n, (off_t)(off + done));
		if (got <= 0)
			return;
		done += (size_t)got;
	}
}

const struct wl_backend wl_native = {
	.file_create = native_file_create,
	.file_read = native_file_read,
	.name = "native",
	.map = native_map,
	.unmap = native_unmap,
	.write = native_write,
	.read = native_read,
	.fork_child = native_fork_child,
	.compute = native_compute,
};

static void user_main(const struct workload *w, struct wl_ctx *ctx, int id, int gate, pid_t parent)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	die_with_parent(parent);
	oom_first();

	char c;
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	close(gate);

	struct wl_slot *slot = &ctx->slots[id];
	double t0 = now_s();
	int err = w->user(ctx, id, slot);
	slot->wall_s = now_s() - t0;
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	slot->user_s = tv_s(self.ru_utime) + tv_s(kids.ru_utime);
	slot->sys_s = tv_s(self.ru_stime) + tv_s(kids.ru_stime);
	if (err) {
		slot->status = 1;
		slot->err = err;
	}
	_exit(err ? 1 : 0);
}

static void kill_all(const pid_t *pids, long n, int sig)
{
	for (long i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], sig);
}

static long find_user(const pid_t *pids, long n, pid_t pid)
{
	for (long i = 0; i < n; i++)
		if (pids[i] == pid)
			return i;
	return -1;
}

void wl_report(const struct workload *w, const struct wl_ctx *ctx, double wall)
{
	const struct wl_params *p = &ctx->p;
	uint64_t jobs = 0, forks = 0, cow = 0, failed = 0;
	double sum = 0, sumsq = 0, user_s = 0, sys_s = 0;
	for (long i = 0; i < p->users; i++) {
		const struct wl_slot *s = &ctx->slots[i];
		jobs += s->jobs;
		forks += s->forks;
		cow += s->cow_pages;
		failed += s->status != 0;
		sum += s->wall_s;
		sumsq += s->wall_s * s->wall_s;
		user_s += s->user_s;
		sys_s += s->sys_s;
	}
	double n = (double)p->users;
	double mean = sum / n;
	double var = n > 1 ? (sumsq - sum * sum / n) / (n - 1) : 0;
	double sd = var > 0 ? sqrt(var) : 0;

	wl_metric("users", n, "users");
	wl_metric("jobs", (double)jobs, "jobs");
	wl_metric("load_wall_s", wall, "s");
	if (wall > 0) {
		wl_metric("jobs_per_min", (double)jobs / wall * 60.0, "jobs/min");
		wl_metric("jobs_per_min_per_user", (double)jobs / wall * 60.0 / n, "jobs/min");
	}
	wl_metric("user_wall_mean_s", mean, "s");
	if (p->users > 1) {
		wl_metric("user_wall_stddev_s", sd, "s");
		/* AIM7's JTI: 100 x (1 - coefficient of variation of child times) */
		if (mean > 0)
			wl_metric("jti_pct", 100.0 * (1.0 - sd / mean), "%");
	} else {
		wl_unavailable("user_wall_stddev_s", "one user: a spread needs at least two");
	}
	wl_metric("users_user_s", user_s, "s");
	wl_metric("users_sys_s", sys_s, "s");
	wl_metric("forks", (double)forks, "forks");
	if (wall > 0)
		wl_metric("forks_per_s", (double)forks / wall, "forks/s");
	wl_metric("cow_pages_written", (double)cow, "pages");
	wl_metric("users_failed", (double)failed, "users");
	if (w->report)
		w->report(ctx, wall);
}

int wl_run(const struct workload *w, struct wl_params *p)
{
	if (p->users > WL_NATIVE_MAX_USERS) {
		fprintf(stderr, "rmapbench-load: users=%ld: a native run takes at most %d (a process each; pid_max)\n",
			p->users, WL_NATIVE_MAX_USERS);
		return 2;
	}
	struct wl_ctx ctx = { .p = *p, .be = &wl_native, .page_size = (size_t)sysconf(_SC_PAGESIZE), .file_fd = -1 };
	size_t slots_len = sizeof(struct wl_slot) * (size_t)p->users + 4096;
	void *shm = mmap(NULL, slots_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		fprintf(stderr, "rmapbench-load: mmap of %zu slot bytes: %s\n", slots_len, strerror(errno));
		return 1;
	}
	ctx.stop = (volatile int *)shm;
	ctx.slots = (struct wl_slot *)((char *)shm + 4096);
	stop_flag = ctx.stop;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	struct sigaction sa = { .sa_handler = on_term };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);

	if (w->setup && w->setup(&ctx) != 0)
		return 1;

	pid_t *pids = calloc((size_t)p->users, sizeof(*pids));
	int gate[2];
	if (!pids || pipe(gate) < 0) {
		fprintf(stderr, "rmapbench-load: %s\n", strerror(errno));
		return 1;
	}
	fflush(stdout);
	pid_t self = getpid();
	long forked = 0;
	int fork_err = 0;
	for (; forked < p->users && !got_term; forked++) {
		pid_t pid = fork();
		if (pid < 0) {
			fork_err = errno;
			break;
		}
		if (pid == 0) {
			close(gate[1]);
			user_main(w, &ctx, (int)forked, gate[0], self);
		}
		pids[forked] = pid;
	}
	close(gate[0]);
	if (fork_err || got_term) {
		kill_all(pids, forked, SIGKILL);
		close(gate[1]);
		while (wait(NULL) > 0 || errno == EINTR)
			;
		if (fork_err)
			fprintf(stderr, "rmapbench-load: fork failed after %ld of %ld users: %s\n", forked, p->users,
				strerror(fork_err));
		else
			fprintf(stderr, "rmapbench-load: interrupted while forking users\n");
		return 1;
	}

	double t0 = now_s();
	close(gate[1]); /* releases every user at once */
	unsigned watchdog = (unsigned)ceil(p->max_s);
	if (p->duration_s > 0 && p->duration_s >= p->max_s)
		watchdog = (unsigned)ceil(p->duration_s) + 30;
	double stop_at = p->duration_s > 0 ? t0 + p->duration_s : 0;
	alarm(p->duration_s > 0 ? (unsigned)ceil(p->duration_s) : watchdog);

	long live = forked;
	int killed = 0, watchdog_fired = 0, term_seen = 0;
	double last_exit = t0;
	while (live > 0) {
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		if (pid < 0) {
			if (errno == ECHILD)
				break;
			if (got_term && !term_seen) {
				term_seen = 1;
				alarm(3); /* grace for the current job, then SIGKILL */
			}
			if (got_alarm) {
				got_alarm = 0;
				if (stop_at && !*ctx.stop && !got_term) {
					*ctx.stop = 1; /* duration over: users finish their job */
					alarm(watchdog);
				} else if (!killed) {
					watchdog_fired = !got_term;
					kill_all(pids, forked, SIGKILL);
					killed = 1;
				}
			}
			continue;
		}
		if (find_user(pids, forked, pid) >= 0) {
			live--;
			last_exit = now_s();
		}
	}
	alarm(0);
	while (waitpid(-1, NULL, WNOHANG) > 0) /* orphans adopted as subreaper */
		;

	if (watchdog_fired) {
		fprintf(stderr, "rmapbench-load: watchdog: point exceeded %u s, users killed\n", watchdog);
		return 3;
	}
	if (got_term) {
		fprintf(stderr, "rmapbench-load: terminated, users stopped\n");
		return 130;
	}
	wl_report(w, &ctx, last_exit - t0);
	fflush(stdout);
	free(pids);
	if (ctx.file_fd >= 0)
		close(ctx.file_fd);
	return 0;
}
