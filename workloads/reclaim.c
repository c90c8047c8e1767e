/* reclaim: the aim7 load made to need reclaim. Each user COW-writes its
 * COW part (before its first job, or with cow_spread over its jobs) and
 * keeps it, and every job reads the whole shared region (so its pages
 * stay referenced and reclaim must walk their rmap to learn so) and runs
 * one aim7 task. The harness supplies the pressure: a
 * memory cgroup limit below the working set, and swap only if asked for. */
#include "workload.h"
#include "mix.h"

#include <math.h>

static struct mix mix;

static int reclaim_setup(struct wl_ctx *ctx)
{
	char err[160];
	if (mix_parse(&mix, ctx->p.mix, err, sizeof(err)) < 0)
		return -1;
	return aim7_setup(ctx);
}

/* With cow_spread, the pages of its COW part a user has written before
 * job `job`: a piece a job over jobs_per_user jobs, from a point of its
 * own, all of them by its last (AIM7's tests write their arrays when they
 * run, in an order each child draws, and each runs once). */
static size_t cow_spread_written(const struct wl_ctx *ctx, size_t pages, uint64_t job, double start)
{
	if (job + 1 >= (uint64_t)ctx->p.jobs_per_user)
		return pages;
	double t = ceil((double)pages * ((double)job + start) / (double)ctx->p.jobs_per_user);
	return t < (double)pages ? (size_t)t : pages;
}

static int reclaim_user(struct wl_ctx *ctx, int id, struct wl_slot *slot)
{
	unsigned rnd = ctx->p.seed * 2246822519u + (unsigned)id + 1;
	size_t span = (size_t)((double)ctx->shared_len * ctx->p.cow_fraction);
	size_t pages = span / ctx->page_size, written = 0;
	struct mix_deck deck = { 0 };
	double start = 0;
	if (ctx->p.cow_spread) {
		start = (double)(wl_rand(&rnd) % 1000 + 1) / 1000;
	} else {
		wl_touch(ctx, ctx->shared, span, 5);
		slot->cow_pages += pages;
	}
	while (!wl_should_stop(ctx, slot)) {
		size_t want = ctx->p.cow_spread ? cow_spread_written(ctx, pages, slot->jobs, start) : 0;
		if (want > written) {
			wl_touch(ctx, ctx->shared + written * ctx->page_size, (want - written) * ctx->page_size, 5);
			slot->cow_pages += want - written;
			written = want;
		}
		for (long pass = 0; pass < ctx->p.passes; pass++) {
			wl_read(ctx, ctx->shared, ctx->shared_len);
			slot->pages_read += ctx->shared_len / ctx->page_size;
		}
		int err = aim7_task(ctx, slot, &rnd, mix_draw(&mix, &deck, ctx, &rnd));
		if (err)
			return err;
		slot->jobs++;
	}
	return 0;
}

static void reclaim_report(const struct wl_ctx *ctx, double wall_s)
{
	uint64_t pages = 0;
	for (long i = 0; i < ctx->p.users; i++)
		pages += ctx->slots[i].pages_read;
	if (wall_s > 0)
		wl_metric("pages_read_per_s", (double)pages / wall_s, "pages/s");
}

const struct workload wl_reclaim = {
	.name = "reclaim",
	.summary = "aim7 under a memory limit: users keep their COW pages and re-read the region",
	.setup = reclaim_setup,
	.user = reclaim_user,
	.report = reclaim_report,
};
