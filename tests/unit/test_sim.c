/* The simulator's own parts, apart from a point: the timeline's iowait,
 * bin by bin, a walk's cost on the measured curve, and the coroutines the
 * users run on. */
#include "coro.h"
#include "timeline.h"
#include "walkcurve.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(1, fabs(b));
}

/* A user's body: its locals must survive every switch, as a workload's
 * loop counters do. */
struct body {
	int id, steps, *log, *nlog;
	long sum;
};

static void body(void *arg)
{
	struct body *b = arg;
	volatile long local = 1000L * b->id; /* on this coroutine's own stack */
	for (int i = 0; i < b->steps; i++) {
		b->log[(*b->nlog)++] = b->id * 100 + i;
		local += i;
		coro_yield();
	}
	b->sum = local;
}

static void test_coro(void)
{
	enum { STACK = 64 * 1024 };
	static char stacks[2][STACK] __attribute__((aligned(16)));
	int log[16], nlog = 0;
	struct body b[2] = { { 1, 3, log, &nlog, 0 }, { 2, 2, log, &nlog, 0 } };
	struct coro *co[2] = { coro_create(body, &b[0], stacks[0], STACK), coro_create(body, &b[1], stacks[1], STACK) };
	CHECK(co[0] && co[1], "two coroutines made");
	int more[2] = { 1, 1 }, rounds = 0;
	while ((more[0] || more[1]) && rounds++ < 10)
		for (int i = 0; i < 2; i++)
			if (more[i])
				more[i] = coro_resume(co[i]);
	const int want[] = { 100, 200, 101, 201, 102 };
	CHECK(nlog == 5 && !memcmp(log, want, sizeof(want)), "they take turns, a step a resume (%d steps)", nlog);
	CHECK(rounds == 4, "each ends at the resume after its last step (%d rounds)", rounds);
	CHECK(b[0].sum == 1003 && b[1].sum == 2001, "locals survive the switches (%ld, %ld)", b[0].sum, b[1].sum);
	CHECK(!coro_resume(co[0]), "an ended coroutine does not run again");
	coro_free(co[0]);
	coro_free(co[1]);
}

int main(void)
{
	test_coro();

	/* two CPUs: both busy for the first second, then one task waits on the
	 * disk for a second while both idle */
	struct timeline tl = { 0 };
	tl_add(&tl, TL_BUSY, 0, 1e9);
	tl_add(&tl, TL_BUSY, 0, 1e9);
	tl_add(&tl, TL_IOWAIT, 1e9, 2e9);
	double idle, iowait;
	tl_idle(&tl, 2, 2e9, &idle, &iowait);
	CHECK(near(idle, 2e9), "idle: two CPUs for the second second (%g)", idle);
	/* one waiter counts one CPU's idle, as a task sleeps from one CPU */
	CHECK(near(iowait, 1e9), "iowait: the one waiter's CPU (%g)", iowait);
	/* a wait during the busy second adds nothing: no CPU was idle then */
	tl_add(&tl, TL_IOWAIT, 0.2e9, 0.8e9);
	tl_idle(&tl, 2, 2e9, &idle, &iowait);
	CHECK(near(iowait, 1e9), "a wait while the CPUs were busy is not iowait (%g)", iowait);
	/* three waiters on two idle CPUs: both CPUs' idle, not more */
	tl_add(&tl, TL_IOWAIT, 1e9, 2e9);
	tl_add(&tl, TL_IOWAIT, 1e9, 2e9);
	tl_idle(&tl, 2, 2e9, &idle, &iowait);
	CHECK(near(iowait, 2e9), "iowait is at most the idle (%g)", iowait);
	/* an interval across bins lands in each in part; past the end nothing counts */
	struct timeline t2 = { 0 };
	tl_add(&t2, TL_BUSY, 5e6, 25e6);
	tl_idle(&t2, 1, 30e6, &idle, &iowait);
	CHECK(near(idle, 10e6) && iowait == 0, "20 ms busy of 30 leaves 10 idle (%g)", idle);
	tl_idle(&t2, 1, 15e6, &idle, &iowait);
	CHECK(near(idle, 5e6), "within 15 ms, 5 idle (%g)", idle);
	tl_add(&t2, TL_BUSY, 3e6, 3e6);
	tl_add(&t2, TL_BUSY, -1, 2e6);
	tl_idle(&t2, 1, 30e6, &idle, &iowait);
	CHECK(near(idle, 10e6), "empty and negative intervals add nothing (%g)", idle);
	/* vmstat's view: two CPUs, the first second both in the kernel, the
	 * second one in user space and one task on the disk */
	struct timeline t3 = { 0 };
	tl_add(&t3, TL_BUSY, 0, 1e9);
	tl_add(&t3, TL_BUSY, 0, 1e9);
	tl_add(&t3, TL_SYS, 0, 1e9);
	tl_add(&t3, TL_SYS, 0, 1e9);
	tl_add(&t3, TL_BUSY, 1e9, 2e9);
	tl_add(&t3, TL_IOWAIT, 1e9, 2e9);
	double step, sys[4], iow[4];
	int nw = tl_windows(&t3, 2, 2e9, 2, &step, sys, iow);
	CHECK(nw == 2 && near(step, 1e9), "two windows of a second (%d, %g)", nw, step);
	CHECK(near(sys[0], 100) && near(iow[0], 0), "the first all system time (%g, %g)", sys[0], iow[0]);
	CHECK(near(sys[1], 0) && near(iow[1], 50), "the second half iowait (%g, %g)", sys[1], iow[1]);
	nw = tl_windows(&t3, 2, 2e9, 3, &step, sys, iow);
	CHECK(nw == 3 && near(step, 0.67e9) && near(sys[2], 0) && near(iow[2], 50),
	      "windows in whole bins, the last cut at the end (%d, %g, %g)", nw, step, iow[2]);
	nw = tl_windows(&t3, 2, 15e6, 4, &step, sys, iow);
	CHECK(nw == 2 && near(step, 10e6) && near(sys[1], 100), "a point shorter than the windows: a bin each (%d)", nw);
	CHECK(tl_windows(&t3, 2, 0, 4, &step, sys, iow) == 0, "an empty point, no window");
	tl_free(&tl);
	tl_free(&t2);
	tl_free(&t3);

	struct walk_curve c;
	char err[300] = "";
	CHECK(walk_curve_parse("2000:700000,4000:1400000,16000:21500000", &c, err, sizeof(err)) == 0 && c.n == 3,
	      "a curve of three points parses (%s)", err);
	CHECK(near(walk_curve_cost(&c, 1000), 350000), "on the line from no VMA to the first point");
	CHECK(near(walk_curve_cost(&c, 2000), 700000), "at a point, its cost");
	CHECK(near(walk_curve_cost(&c, 10000), 1400000 + (21500000 - 1400000) * 0.5), "between two points, on their line");
	CHECK(near(walk_curve_cost(&c, 32000), 43000000), "past the last, its cost a VMA (%g)", walk_curve_cost(&c, 32000));
	CHECK(walk_curve_cost(&c, 0) == 0, "no VMA, no cost");
	const char *bad[] = { "", "5", "0:5", "2.5:5", "5:-1", "5:x", "5:1,", "5:1;6:2", "6:2,5:3", "5:3,6:2", "5:1,,6:2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(walk_curve_parse(bad[i], &c, err, sizeof(err)) < 0 && !strncmp(err, "sim_walk_curve: ", 16),
		      "'%s' refused: %s", bad[i], err);
	char big[600];
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	CHECK(walk_curve_parse(big, &c, err, sizeof(err)) < 0 && strstr(err, "longer than"), "a long text refused: %s", err);
	char many[400] = "";
	for (int i = 1; i <= 17; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%d:%d", i > 1 ? "," : "", i, i);
	CHECK(walk_curve_parse(many, &c, err, sizeof(err)) < 0 && strstr(err, "more than 16"), "17 points refused: %s", err);
	return tap_done();
}
