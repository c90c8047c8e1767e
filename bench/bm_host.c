/* The running kernel's side of the same costs:
 *   host/fork_exit/MiB      fork+exit of a process with an M-MiB touched region
 *   host/cow_fault/pages    a batch of COW faults (a child holds the pages
 *                           shared); ns_per_fault is one
 *   host/munmap_cowed/MiB   munmap of an M-MiB region the process has COWed
 * Google Benchmark's CPU time leaves out reaped children, so the children's
 * system and user time come as counters from RUSAGE_CHILDREN deltas. */
#include "bench.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double children_cpu(double *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
}

static char *region(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	return p;
}

/* A child that shares our pages until we let it go. */
static pid_t holder(int *release)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		close(fds[1]);
		char c;
		while (read(fds[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(fds[0]);
	*release = fds[1];
	return pid;
}

/* A touched region and a child holding it shared: the next write to any
 * page of it is a COW fault. */
static char *shared_region(struct bench_state *st, size_t len, pid_t *pid, int *release)
{
	char *p = region(len);
	*pid = p ? holder(release) : -1;
	if (!p || *pid < 0) {
		bench_skip_with_error(st, "setup failed");
		if (p)
			munmap(p, len);
		return NULL;
	}
	return p;
}

static void let_go(pid_t pid, int release)
{
	close(release);
	waitpid(pid, NULL, 0);
}

static void bm_fork_exit(struct bench_state *st, void *arg)
{
	(void)arg;
	size_t len = (size_t)bench_range(st, 0) << 20;
	char *p = region(len);
	if (!p) {
		bench_skip_with_error(st, "mmap failed");
		return;
	}
	double sys0, usr0 = children_cpu(&sys0);
	while (bench_keep_running(st)) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	double sys1, usr1 = children_cpu(&sys1);
	double n = (double)bench_iterations(st);
	bench_counter(st, "child_sys_us", (sys1 - sys0) * 1e6 / n, BENCH_COUNTER_PLAIN);
	bench_counter(st, "child_user_us", (usr1 - usr0) * 1e6 / n, BENCH_COUNTER_PLAIN);
	munmap(p, len);
}

/* A batch of COW faults per iteration, timed together: one fault is too
 * short for the clock, and each batch needs a fresh shared region (its
 * setup, not timed, costs more than its faults). */
static void bm_cow_fault(struct bench_state *st, void *arg)
{
	(void)arg;
	const size_t pages = (size_t)bench_range(st, 0), len = pages * PAGE;
	double timed = 0;
	while (bench_keep_running(st)) {
		int release;
		pid_t pid;
		char *p = shared_region(st, len, &pid, &release);
		if (!p)
			return;
		double t0 = now();
		for (size_t off = 0; off < len; off += PAGE)
			p[off] = 2; /* a COW fault each */
		double t = now() - t0;
		bench_set_iteration_time(st, t);
		timed += t;
		let_go(pid, release);
		munmap(p, len);
	}
	bench_counter(st, "ns_per_fault", timed * 1e9 / ((double)bench_iterations(st) * (double)pages),
		      BENCH_COUNTER_PLAIN);
}

static void bm_munmap_cowed(struct bench_state *st, void *arg)
{
	(void)arg;
	size_t len = (size_t)bench_range(st, 0) << 20;
	while (bench_keep_running(st)) {
		int release;
		pid_t pid;
		char *p = shared_region(st, len, &pid, &release);
		if (!p)
			return;
		for (size_t off = 0; off < len; off += PAGE)
			p[off] = 2;
		double t0 = now();
		munmap(p, len);
		bench_set_iteration_time(st, now() - t0);
		let_go(pid, release);
	}
}

void register_host_benchmarks(void);

void register_host_benchmarks(void)
{
	/* The COW benchmarks run a fixed number of iterations: sized by time,
	 * Google Benchmark would build thousands of regions to accumulate its
	 * minimum of timed work, minutes of untimed setup for each instance. */
	static const struct bench_def defs[] = {
		{ .name = "host/fork_exit", .fn = bm_fork_exit, .args = { 1, 16, 64 }, .nargs = 3,
		  .arg_names = { "MiB" }, .unit = BENCH_US, .real_time = true },
		{ .name = "host/cow_fault", .fn = bm_cow_fault, .args = { 1024 }, .nargs = 1, .arg_names = { "pages" },
		  .unit = BENCH_US, .manual_time = true, .iterations = 20 },
		{ .name = "host/munmap_cowed", .fn = bm_munmap_cowed, .args = { 1, 16 }, .nargs = 2,
		  .arg_names = { "MiB" }, .unit = BENCH_US, .manual_time = true, .iterations = 20 },
	};
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		bench_register(&defs[i]);
}
