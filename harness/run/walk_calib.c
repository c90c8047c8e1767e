/* The running kernel's cost of one VMA visited by an rmap walk: the
 * engine target's sim_vma_ns, measured rather than chosen.
 *
 * A page is mapped by one process of a fork family, under the anon_vma
 * whose interval tree holds every process's VMA. MADV_PAGEOUT of it runs
 * try_to_unmap, whose walk visits the VMAs in the tree's order (the order
 * of the forks) until it finds the mapping: in the last process forked.
 * Each of the others maps another page at that address, as every other
 * process of an AIM7 family did (its own COW copy, or the driver's page
 * not yet written): so each visit is a page table walk down to a present
 * pte of another pfn, which 2.6.33's page_check_address took the pte lock
 * to compare. The others drop the family's page with MADV_DONTNEED and
 * read-fault the zero page in its place: a present pte without a page of
 * memory each. Dropping alone is not it: since 6.14 (CONFIG_PT_RECLAIM)
 * MADV_DONTNEED frees the emptied pte table, and the walk stops at the
 * pmd, short of any 2.6.33 visit.
 * Time per page against N, the other processes, is a line whose slope is
 * one VMA's cost. A page-out writes to swap, so a swap file is made for the
 * measurement and removed after it.
 *
 * Each round runs in a process group of its own (a leader, its N
 * sleepers, the measurer): every one of them dies with the leader, and the
 * harness kills the group on any way out. */
#include "walk_calib.h"
#include "walkcurve.h"
#include "stats.h"
#include "signals.h"
#include "swap.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Pages of [p, p + len) whose pagemap entry has the bit: 62 a swap entry,
 * 63 present. */
static long pagemap_count(const char *p, size_t len, int bit)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	long n = 0;
	uint64_t e[512]; /* every sleeper of a round reads its range: a read a chunk, not a page */
	for (size_t page = 0, pages = len / PAGE; page < pages && n >= 0;) {
		size_t k = pages - page < 512 ? pages - page : 512;
		off_t at = (off_t)(((uintptr_t)p / PAGE + page) * sizeof(e[0]));
		if (pread(fd, e, k * sizeof(e[0]), at) != (ssize_t)(k * sizeof(e[0]))) {
			n = -1;
			break;
		}
		for (size_t i = 0; i < k; i++)
			n += (e[i] >> bit) & 1;
		page += k;
	}
	close(fd);
	return n;
}

int walk_calib_map_other_page(char *r, size_t len)
{
	madvise(r, len, MADV_DONTNEED);
	if (madvise(r, len, MADV_POPULATE_READ)) /* before 5.14: a fault a page */
		for (size_t off = 0; off < len; off += PAGE)
			(void)*(volatile char *)(r + off);
	return pagemap_count(r, len, 63) == (long)(len / PAGE) ? 0 : -1;
}

struct round_result {
	double seconds;
	long swapped;
	int err;
	int pte_missing; /* a process of the family kept no pte: not a 2.6.33 walk */
};

static void sleeper(char *r, size_t len, int ready, pid_t leader)
{
	die_with_parent(leader);
	char x = walk_calib_map_other_page(r, len) == 0;
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
		rr.swapped = pagemap_count(r, len, 62);
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
	int ready[2], go[2], res[2], missing = 0;
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
		if (!x)
			missing = 1;
	}
	pid_t m = fork(); /* last: its VMA is the tree's last */
	if (m < 0) {
		rr.err = errno;
		goto out;
	}
	if (m == 0)
		measurer(r, len, go[0], res[1], self);
	if (walk_calib_map_other_page(r, len)) /* the page is the measurer's alone now */
		missing = 1;
	if (write(go[1], "g", 1) != 1 || read(res[0], &rr, sizeof(rr)) != sizeof(rr))
		rr.err = rr.err ? rr.err : EPIPE;
out:
	rr.pte_missing = missing;
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
			if (rr.pte_missing) {
				snprintf(err, errlen,
					 "with %ld processes, one kept no pte after a read fault (does this kernel "
					 "forbid the zero page?): its walk would stop short of 2.6.33's",
					 n);
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
	out->others_mapped = true;
	walk_calib_make_curve(out);
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of the rounds with n processes; -1 when none. */
static double median_at(const struct walk_calib *c, long n)
{
	double v[WALK_CALIB_MAX_POINTS];
	int k = 0;
	for (int i = 0; i < c->npts; i++)
		if (c->pts[i].n == n)
			v[k++] = c->pts[i].ns_per_page;
	if (!k)
		return -1;
	qsort(v, (size_t)k, sizeof(v[0]), by_value);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* The median, not the mean: a round that met other work on the machine
 * is slower by far, never faster. Without a round at N = 0 the fit's
 * fixed part is the page-out's own. A cost that falls with more VMAs is
 * noise: the curve keeps the highest cost so far. */
void walk_calib_make_curve(struct walk_calib *c)
{
	c->ncurve = 0;
	double base = median_at(c, 0);
	if (base < 0)
		base = c->fixed_ns > 0 ? c->fixed_ns : 0;
	double top = 0;
	for (;;) {
		long next = -1; /* the smallest N above the last one taken */
		long last = c->ncurve ? c->curve[c->ncurve - 1].n : 0;
		for (int i = 0; i < c->npts; i++)
			if (c->pts[i].n > last && (next < 0 || c->pts[i].n < next))
				next = c->pts[i].n;
		if (next < 0 || c->ncurve == WALK_CALIB_MAX_POINTS)
			break;
		double y = median_at(c, next) - base;
		if (y > top)
			top = y;
		c->curve[c->ncurve++] = (struct walk_point){ next, top };
	}
}

double walk_calib_spread(const struct walk_calib *c, long *at)
{
	double worst = 0;
	*at = -1;
	for (int i = 0; i < c->npts; i++) {
		long n = c->pts[i].n;
		if (!n)
			continue;
		double lo = HUGE_VAL, hi = 0, med = median_at(c, n);
		for (int j = 0; j < c->npts; j++)
			if (c->pts[j].n == n) {
				lo = fmin(lo, c->pts[j].ns_per_page);
				hi = fmax(hi, c->pts[j].ns_per_page);
			}
		if (med > 0 && (hi - lo) / med > worst) {
			worst = (hi - lo) / med;
			*at = n;
		}
	}
	return worst;
}

int walk_calib_curve_text(const struct walk_calib *c, char *buf, size_t len)
{
	size_t used = 0;
	if (!c->ncurve || len == 0)
		return -1;
	buf[0] = 0;
	for (int i = 0; i < c->ncurve && i < WALK_CURVE_MAX; i++) {
		int w = snprintf(buf + used, len - used, "%s%ld:%.0f", i ? "," : "", c->curve[i].n, c->curve[i].ns_per_page);
		if (w < 0 || (size_t)w >= len - used)
			return -1;
		used += (size_t)w;
	}
	return 0;
}
