/* reclaim: the aim7 load made to need reclaim. Each user first COW-writes
 * its whole COW part and keeps it, then every job reads the whole shared
 * region (so its pages stay referenced and reclaim must walk their rmap to
 * learn so) and runs one aim7 task. The harness supplies the pressure: a
 * memory cgroup limit below the working set, and swap only if asked for. */
#include "workload.h"
#include "mix.h"

static struct mix mix;

static int reclaim_setup(struct wl_ctx *ctx)
{
	char err[160];
	if (mix_parse(&mix, ctx->p.mix, err, sizeof(err)) < 0)
		return -1;
	return aim7_setup(ctx);
}

static int reclaim_user(struct wl_ctx *ctx, int id, struct wl_slot *slot)
{
	unsigned rnd = ctx->p.seed * 2246822519u + (unsigned)id + 1;
	size_t span = (size_t)((double)ctx->shared_len * ctx->p.cow_fraction);
	wl_touch(ctx, ctx->shared, span, 5);
	slot->cow_pages += span / ctx->page_size;
	while (!wl_should_stop(ctx, slot)) {
		for (long pass = 0; pass < ctx->p.passes; pass++) {
			wl_read(ctx, ctx->shared, ctx->shared_len);
			slot->pages_read += ctx->shared_len / ctx->page_size;
		}
		int err = aim7_task(ctx, slot, &rnd, mix_pick(&mix, &rnd));
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
