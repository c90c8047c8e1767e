/* The simulator's own arithmetic, apart from a point: the timeline's
 * iowait, bin by bin. */
#include "timeline.h"
#include "tap.h"

#include <math.h>

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(1, fabs(b));
}

int main(void)
{
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
	tl_free(&tl);
	tl_free(&t2);
	return tap_done();
}
