/* The running kernel's cost of one VMA visited by an rmap walk: the
 * engine target's sim_vma_ns, measured rather than chosen.
 *
 * A page is mapped by one process of a fork family, under the anon_vma
 * whose interval tree holds every process's VMA. MADV_PAGEOUT of it runs
 * try_to_unmap, whose walk visits the VMAs in the tree's order (the order
 * of the forks) until it finds the mapping: in the last process forked.
 * The others dropped their ptes with MADV_DONTNEED but kept their VMAs, so
 * each visit is a page table walk that finds nothing, which is what a
 * 2.6.33 walk of a COWed page did for every other process of the family.
 * Time per page against N, the other processes, is a line whose slope is
 * one VMA's cost. A page-out writes to swap, so a swap file is made for the
 * measurement and removed after it.
 *
 * Each round runs in a process group of its own (a leader, its N
 * sleepers, the measurer): every one of them dies with the leader, and the
 * harness kills the group on any way out. */
#include "walk_calib.h"
#include "stats.h"
#include "signals.h"
#include "swap.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(99);
}

/* Pages of [p, p + len) whose pte is a swap entry (pagemap bit 62). */
static long swapped_pages(const char *p, size_t len)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	long n = 0;
	for (size_t off = 0; off < len; off += PAGE) {
		uint64_t e;
		if (pread(fd, &e, sizeof(e), (off_t)(((uintptr_t)p + off) / PAGE * sizeof(e))) != sizeof(e)) {
			n = -1;
			break;
		}
		n += (e >> 62) & 1;
	}
	close(fd);
	return n;
}

struct round_result {
	double seconds;
	long swapped;
	int err;
};

static void sleeper(char *r, size_t len, int ready, pid_t leader)
{
	die_with_parent(leader);
	madvise(r, len, MADV_DONTNEED);
	char x = 1;
	if (write(ready, &x, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void measurer(char *r, size_t len, int go, int out, pid_t leader)
{
	die_with_parent(leader);
	char x;
	struct round_result rr = { 0 };
	if (read(go, &x, 1) == 1) {
		double t0 = mono();
		rr.err = madvise(r, len, MADV_PAGEOUT) ? errno : 0;
		rr.seconds = mono() - t0;
		rr.swapped = swapped_pages(r, len);
	} else {
		rr.err = EPIPE;
	}
	_exit(write(out, &rr, sizeof(rr)) == sizeof(rr) ? 0 : 1);
}

/* The round's leader: the family, the measurement, then every child
 * killed and reaped. Writes a round_result to out. */
static void leader(long n, long pages, int out, pid_t harness)
{
	die_with_parent(harness);
	pid_t self = getpid();
	size_t len = (size_t)pages * PAGE;
	struct round_result rr = { 0 };
	int ready[2], go[2], res[2];
	char *r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED || pipe(ready) < 0 || pipe(go) < 0 || pipe(res) < 0) {
		rr.err = errno;
		goto out;
	}
	for (size_t off = 0; off < len; off += PAGE)
		r[off] = 1;
	long forked = 0;
	for (; forked < n; forked++) {
		pid_t c = fork();
		if (c < 0) {
			rr.err = errno;
			goto out;
		}
		if (c == 0)
			sleeper(r, len, ready[1], self);
	}
	for (long i = 0; i < n; i++) {
		char x;
		if (read(ready[0], &x, 1) != 1) {
			rr.err = EPIPE;
			goto out;
		}
	}
	pid_t m = fork(); /* last: its VMA is the tree's last */
	if (m < 0) {
		rr.err = errno;
		goto out;
	}
	if (m == 0)
		measurer(r, len, go[0], res[1], self);
	madvise(r, len, MADV_DONTNEED); /* the page is the measurer's alone now */
	if (write(go[1], "g", 1) != 1 || read(res[0], &rr, sizeof(rr)) != sizeof(rr))
		rr.err = rr.err ? rr.err : EPIPE;
out:
	if (write(out, &rr, sizeof(rr)) != sizeof(rr))
		_exit(1);
	_exit(0); /* the children die with us (PDEATHSIG) */
}

static int one_round(long n, long pages, double timeout_s, struct round_result *rr)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid_t harness = getpid();
	pid_t l = fork();
	if (l < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (l == 0) {
		setpgid(0, 0);
		close(p[0]);
		leader(n, pages, p[1], harness);
	}
	setpgid(l, l);
	close(p[1]);
	memset(rr, 0, sizeof(*rr));
	rr->err = ETIMEDOUT;
	double deadline = mono() + timeout_s;
	int fl = fcntl(p[0], F_GETFL);
	fcntl(p[0], F_SETFL, fl | O_NONBLOCK);
	while (mono() < deadline) {
		ssize_t got = read(p[0], rr, sizeof(*rr));
		if (got == (ssize_t)sizeof(*rr))
			break;
		if (got == 0) {
			rr->err = EPIPE;
			break;
		}
		usleep(20000);
	}
	close(p[0]);
	killpg(l, SIGKILL);
	waitpid(l, NULL, 0);
	return 0;
}

int walk_calibrate(const char *dir, const struct walk_calib_plan *plan, struct walk_calib *out, char *err,
		   size_t errlen)
{
	memset(out, 0, sizeof(*out));
	struct utsname u;
	uname(&u);
	snprintf(out->release, sizeof(out->release), "%s", u.release);
	char swappath[1100];
	if (swap_enable(dir, plan->swap_mib, swappath, sizeof(swappath), err, errlen) < 0)
		return -1;
	int rc = 0;
	for (int rep = 0; rep < plan->repetitions && !rc && !rb_interrupted; rep++)
		for (int i = 0; i < plan->n_families && !rc && !rb_interrupted; i++) {
			struct round_result rr;
			long n = plan->families[i];
			if (one_round(n, plan->pages, plan->timeout_s, &rr) < 0 || rr.err) {
				snprintf(err, errlen, "the round with %ld processes failed: %s", n,
					 strerror(rr.err ? rr.err : errno));
				rc = -1;
				break;
			}
			if (rr.swapped < plan->pages / 2) { /* a few may be under writeback still */
				snprintf(err, errlen,
					 "MADV_PAGEOUT swapped %ld of %ld pages with %ld processes: the walk was not "
					 "measured (is swap full, or the page shared?)",
					 rr.swapped, plan->pages, n);
				rc = -1;
				break;
			}
			struct walk_point *wp = &out->pts[out->npts++];
			wp->n = n;
			wp->ns_per_page = rr.seconds * 1e9 / (double)rr.swapped;
		}
	swap_disable(swappath);
	if (rc)
		return -1;
	if (rb_interrupted) {
		snprintf(err, errlen, "interrupted");
		return -1;
	}
	double x[WALK_CALIB_MAX_POINTS], y[WALK_CALIB_MAX_POINTS], w[WALK_CALIB_MAX_POINTS];
	for (int i = 0; i < out->npts; i++) {
		x[i] = (double)out->pts[i].n;
		y[i] = out->pts[i].ns_per_page;
		w[i] = 1.0 / (y[i] * y[i]); /* relative errors: N spans orders of magnitude */
	}
	stats_wlinear(x, y, w, out->npts, &out->vma_ns, &out->fixed_ns, &out->r2);
	return 0;
}
