/* The running kernel's cost of one VMA visited by an rmap walk: the
 * engine target's sim_vma_ns, measured rather than chosen.
 *
 * A page is mapped by one process of a fork family, under the anon_vma
 * whose interval tree holds every process's VMA. MADV_PAGEOUT of it runs
 * try_to_unmap, whose walk visits the VMAs in the tree's order (the order
 * of the forks) until it finds the mapping: in the process forked after
 * N others. One family serves every N of the plan, each with a chunk of
 * pages of its own.
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
 * The time is the measurer's own CPU time (the walk runs in its madvise),
 * so a preemption by other work, or a hypervisor's steal, is not in it;
 * and each N's pages go out in slices, the N taken in turn, so a busy
 * moment falls on every N alike. What is left of the machine's noise can
 * only add: each N's cost is a low quantile of its samples.
 *
 * Each round runs in a process group of its own (a leader, its sleepers,
 * a measurer for each N): every one of them dies with the leader, and the
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

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double mono(void)
{
	return clock_s(CLOCK_MONOTONIC);
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

/* What a round's leader sends back: a result a slice and family size, in
 * the plan's order (under PIPE_BUF: one write). */
struct round_results {
	struct round_result r[WALK_CALIB_MAX_SLICES][WALK_CALIB_MAX_FAMILIES];
	int err;
};
_Static_assert(sizeof(struct round_results) <= 4096, "a round's results go in one write to a pipe");

struct family {
	char *r;       /* nfam chunks of `pages` pages: chunk k is walked past N_k others */
	size_t chunk;  /* bytes */
	size_t slice;  /* bytes a sample */
	int nfam, slices;
	int ready[2];  /* a byte from each process once its ptes are in place */
};

static void sleeper(const struct family *f, pid_t leader)
{
	die_with_parent(leader);
	char x = walk_calib_map_other_page(f->r, f->chunk * (size_t)f->nfam) == 0;
	if (write(f->ready[1], &x, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* The process forked after N_k others: chunk k's page is its alone once
 * every other process has mapped another page there. */
static void measurer(const struct family *f, int k, int go, int out, pid_t leader)
{
	die_with_parent(leader);
	char x = 1, *own = f->r + f->chunk * (size_t)k, *end = f->r + f->chunk * (size_t)f->nfam;
	struct round_result rr = { 0 };
	if ((own > f->r && walk_calib_map_other_page(f->r, (size_t)(own - f->r))) ||
	    (own + f->chunk < end && walk_calib_map_other_page(own + f->chunk, (size_t)(end - own - f->chunk))))
		x = 0;
	if (write(f->ready[1], &x, 1) != 1)
		_exit(1);
	for (int s = 0; s < f->slices; s++) {
		char *at = own + f->slice * (size_t)s;
		if (read(go, &x, 1) == 1) {
			double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
			rr.err = madvise(at, f->slice, MADV_PAGEOUT) ? errno : 0;
			rr.seconds = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
			rr.swapped = pagemap_count(at, f->slice, 62);
		} else {
			rr.err = EPIPE;
		}
		if (write(out, &rr, sizeof(rr)) != sizeof(rr))
			_exit(1);
	}
	_exit(0);
}

/* The round's leader: one family for every N of the plan (ascending).
 * The walk visits the tree's VMAs in the order of the forks (the leader's
 * first) and stops once the page is unmapped, so chunk k's walk visits
 * the N_k processes forked before its measurer, as a family of N_k alone
 * would; the forks of the largest N are the round's time. Then every
 * child is killed and reaped. Writes round_results to out. */
static void leader(const struct walk_calib_plan *plan, int out, pid_t harness)
{
	die_with_parent(harness);
	pid_t self = getpid();
	struct round_results rs = { 0 };
	struct family f = { .chunk = (size_t)plan->pages * PAGE, .nfam = plan->n_families, .slices = plan->slices };
	f.slice = f.chunk / (size_t)f.slices;
	size_t len = f.chunk * (size_t)f.nfam;
	int go[WALK_CALIB_MAX_FAMILIES][2], res[2], missing = 0;
	f.r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f.r == MAP_FAILED || pipe(f.ready) < 0 || pipe(res) < 0) {
		rs.err = errno;
		goto out;
	}
	for (int k = 0; k < f.nfam; k++)
		if (pipe(go[k]) < 0) {
			rs.err = errno;
			goto out;
		}
	for (size_t off = 0; off < len; off += PAGE)
		f.r[off] = 1;
	long procs = plan->families[f.nfam - 1] + 1;
	for (long i = 0, k = 0; i < procs; i++) {
		pid_t c = fork();
		if (c < 0) {
			rs.err = errno;
			goto out;
		}
		if (c == 0) {
			if (k < f.nfam && i == plan->families[k])
				measurer(&f, (int)k, go[k][0], res[1], self);
			sleeper(&f, self);
		}
		if (k < f.nfam && i == plan->families[k])
			k++;
	}
	for (long i = 0; i < procs; i++) {
		char x;
		if (read(f.ready[0], &x, 1) != 1) {
			rs.err = EPIPE;
			goto out;
		}
		if (!x)
			missing = 1;
	}
	if (walk_calib_map_other_page(f.r, len)) /* each chunk's page is its measurer's alone now */
		missing = 1;
	for (int s = 0; s < f.slices; s++)
		for (int k = 0; k < f.nfam; k++) {
			struct round_result *rr = &rs.r[s][k];
			if (write(go[k][1], "g", 1) != 1 || read(res[0], rr, sizeof(*rr)) != sizeof(*rr))
				rr->err = rr->err ? rr->err : EPIPE;
			rr->pte_missing = missing;
		}
out:
	if (write(out, &rs, sizeof(rs)) != sizeof(rs))
		_exit(1);
	_exit(0); /* the children die with us (PDEATHSIG) */
}

static int one_round(const struct walk_calib_plan *plan, struct round_results *rs)
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
		leader(plan, p[1], harness);
	}
	setpgid(l, l);
	close(p[1]);
	memset(rs, 0, sizeof(*rs));
	rs->err = ETIMEDOUT;
	double deadline = mono() + plan->timeout_s;
	int fl = fcntl(p[0], F_GETFL);
	fcntl(p[0], F_SETFL, fl | O_NONBLOCK);
	while (mono() < deadline) {
		ssize_t got = read(p[0], rs, sizeof(*rs));
		if (got == (ssize_t)sizeof(*rs))
			break;
		if (got == 0) {
			rs->err = EPIPE;
			break;
		}
		usleep(20000);
	}
	close(p[0]);
	killpg(l, SIGKILL);
	waitpid(l, NULL, 0);
	return 0;
}

static int by_n(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The plan checked and its families sorted into sorted: 0, or -1 with err. */
static int plan_sorted(const struct walk_calib_plan *plan, struct walk_calib_plan *sorted, char *err, size_t errlen)
{
	*sorted = *plan;
	if (sorted->n_families < 1 || sorted->n_families > WALK_CALIB_MAX_FAMILIES) {
		snprintf(err, errlen, "%d family sizes: 1 to %d", sorted->n_families, WALK_CALIB_MAX_FAMILIES);
		return -1;
	}
	if (sorted->slices < 1 || sorted->slices > WALK_CALIB_MAX_SLICES || sorted->pages % sorted->slices) {
		snprintf(err, errlen, "%d slices of %ld pages: 1 to %d that divide the pages", sorted->slices,
			 sorted->pages, WALK_CALIB_MAX_SLICES);
		return -1;
	}
	qsort(sorted->families, (size_t)sorted->n_families, sizeof(sorted->families[0]), by_n);
	for (int i = 1; i < sorted->n_families; i++)
		if (sorted->families[i] == sorted->families[i - 1]) {
			snprintf(err, errlen, "the family size %ld is given twice", sorted->families[i]);
			return -1;
		}
	return 0;
}

/* Round rep's samples into out: 0, or -1 with err when a walk was not
 * measured. */
static int keep_round(const struct walk_calib_plan *sorted, const struct round_results *rs, int rep,
		      struct walk_calib *out, char *err, size_t errlen)
{
	for (int j = 0; j < sorted->n_families * sorted->slices; j++) {
		int i = j % sorted->n_families;
		const struct round_result *rr = &rs->r[j / sorted->n_families][i];
		long n = sorted->families[i];
		long pages = sorted->pages / sorted->slices;
		if (rr->err) {
			snprintf(err, errlen, "the walk past %ld processes failed: %s", n, strerror(rr->err));
			return -1;
		} else if (rr->pte_missing) {
			snprintf(err, errlen,
				 "with %ld processes, one kept no pte after a read fault (does this kernel "
				 "forbid the zero page?): its walk would stop short of 2.6.33's",
				 sorted->families[sorted->n_families - 1]);
			return -1;
		} else if (rr->swapped < (pages + 1) / 2) { /* a few may be under writeback still */
			snprintf(err, errlen,
				 "MADV_PAGEOUT swapped %ld of %ld pages past %ld processes: the walk was not "
				 "measured (is swap full, or the page shared?)",
				 rr->swapped, pages, n);
			return -1;
		} else if (out->npts < WALK_CALIB_MAX_POINTS) {
			struct walk_point *wp = &out->pts[out->npts++];
			wp->n = n;
			wp->ns_per_page = rr->seconds * 1e9 / (double)rr->swapped;
			wp->round = rep;
		}
	}
	return 0;
}

/* The samples fitted: a VMA's cost (the slope) and a page's fixed cost. */
static void fit(struct walk_calib *out)
{
	double x[WALK_CALIB_MAX_POINTS], y[WALK_CALIB_MAX_POINTS], w[WALK_CALIB_MAX_POINTS];
	for (int i = 0; i < out->npts; i++) {
		x[i] = (double)out->pts[i].n;
		y[i] = out->pts[i].ns_per_page;
		w[i] = 1.0 / (y[i] * y[i]); /* relative errors: N spans orders of magnitude */
	}
	stats_wlinear(x, y, w, out->npts, &out->vma_ns, &out->fixed_ns, &out->r2);
	out->others_mapped = true;
	walk_calib_make_curve(out);
}

int walk_calibrate(const char *dir, const struct walk_calib_plan *plan, struct walk_calib *out, char *err,
		   size_t errlen)
{
	memset(out, 0, sizeof(*out));
	struct utsname u;
	uname(&u);
	snprintf(out->release, sizeof(out->release), "%s", u.release);
	struct walk_calib_plan sorted;
	if (plan_sorted(plan, &sorted, err, errlen) < 0)
		return -1;
	char swappath[1100];
	if (swap_enable(dir, plan->swap_mib, swappath, sizeof(swappath), err, errlen) < 0)
		return -1;
	int rc = 0;
	for (int rep = 0; rep < plan->repetitions && !rc && !rb_interrupted; rep++) {
		struct round_results rs;
		if (one_round(&sorted, &rs) < 0 || rs.err) {
			snprintf(err, errlen, "the round with %ld processes failed: %s", sorted.families[sorted.n_families - 1],
				 strerror(rs.err ? rs.err : errno));
			rc = -1;
			break;
		}
		rc = keep_round(&sorted, &rs, rep, out, err, errlen);
	}
	swap_disable(swappath);
	if (rc)
		return -1;
	if (rb_interrupted) {
		snprintf(err, errlen, "interrupted");
		return -1;
	}
	fit(out);
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The samples with n processes (of one round, or any when round < 0),
 * sorted; how many. */
static int samples_at(const struct walk_calib *c, long n, int round, double *v)
{
	int k = 0;
	for (int i = 0; i < c->npts; i++)
		if (c->pts[i].n == n && (round < 0 || c->pts[i].round == round))
			v[k++] = c->pts[i].ns_per_page;
	qsort(v, (size_t)k, sizeof(v[0]), by_value);
	return k;
}

/* Their WALK_CALIB_QUANTILE (of one round, or all when round < 0), by
 * the nearest rank below; -1 when none. */
static double quantile_of(const struct walk_calib *c, long n, int round)
{
	double v[WALK_CALIB_MAX_POINTS];
	int k = samples_at(c, n, round, v);
	if (!k)
		return -1;
	return v[(int)(WALK_CALIB_QUANTILE * (k - 1))];
}

static double quantile_at(const struct walk_calib *c, long n)
{
	return quantile_of(c, n, -1);
}

/* The N of the points in ascending order, each once; how many. */
static int distinct_n(const struct walk_calib *c, long *out, int max)
{
	int m = 0;
	for (;;) {
		long next = -1, last = m ? out[m - 1] : -1;
		for (int i = 0; i < c->npts; i++)
			if (c->pts[i].n > last && (next < 0 || c->pts[i].n < next))
				next = c->pts[i].n;
		if (next < 0 || m == max)
			return m;
		out[m++] = next;
	}
}

int walk_calib_quantiles(const struct walk_calib *c, long *n, double *v, int max)
{
	int m = distinct_n(c, n, max);
	for (int i = 0; i < m; i++)
		v[i] = quantile_at(c, n[i]);
	return m;
}

/* A low quantile, not the mean: the machine's other work only ever adds
 * to a sample (the mean of six rounds moved by 16% at 8,000 VMAs between
 * calibrations of the wall clock; their medians by 2x). Without a round
 * at N = 0 the fit's fixed part is the page-out's own. A cost that falls
 * with more VMAs is noise: the curve keeps the highest cost so far. */
void walk_calib_make_curve(struct walk_calib *c)
{
	c->ncurve = 0;
	double base = quantile_at(c, 0);
	if (base < 0)
		base = c->fixed_ns > 0 ? c->fixed_ns : 0;
	double top = 0;
	long n[WALK_CALIB_MAX_POINTS];
	int m = distinct_n(c, n, WALK_CALIB_MAX_POINTS);
	for (int i = 0; i < m && c->ncurve < WALK_CURVE_MAX; i++) {
		if (!n[i])
			continue;
		double y = quantile_at(c, n[i]) - base;
		if (y > top)
			top = y;
		c->curve[c->ncurve++] = (struct walk_point){ .n = n[i], .ns_per_page = top };
	}
}

double walk_calib_spread(const struct walk_calib *c, long *at)
{
	double worst = 0;
	*at = -1;
	long n[WALK_CALIB_MAX_POINTS];
	int m = distinct_n(c, n, WALK_CALIB_MAX_POINTS);
	int rounds = 0;
	for (int i = 0; i < c->npts; i++)
		rounds = c->pts[i].round + 1 > rounds ? c->pts[i].round + 1 : rounds;
	for (int i = 0; i < m; i++) {
		double lo = HUGE_VAL, hi = 0;
		for (int r = 0; r < rounds; r++) {
			double q = quantile_of(c, n[i], r);
			if (q > 0)
				lo = fmin(lo, q), hi = fmax(hi, q);
		}
		if (n[i] && hi > 0 && (hi - lo) / lo > worst) {
			worst = (hi - lo) / lo;
			*at = n[i];
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
