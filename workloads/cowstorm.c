/* cowstorm: copy-on-write faults, back to back. The parent touches the
 * shared region; each user repeatedly forks a child that writes every page
 * of the COW part (one COW fault each, each new page landing in the child's
 * anon_vma) and exits. A job is one such child. */
#include "workload.h"
#include "mix.h"

static void cow_all(const struct wl_ctx *ctx, unsigned arg)
{
	size_t span = (size_t)((double)ctx->shared_len * ctx->p.cow_fraction);
	wl_touch(ctx, ctx->shared, span, (unsigned char)arg);
}

static int cowstorm_user(struct wl_ctx *ctx, int id, struct wl_slot *slot)
{
	size_t span = (size_t)((double)ctx->shared_len * ctx->p.cow_fraction);
	while (!wl_should_stop(ctx, slot)) {
		int err = wl_fork_child(ctx, cow_all, (unsigned)id + 7);
		if (err)
			return err;
		slot->forks++;
		slot->cow_pages += (span + ctx->page_size - 1) / ctx->page_size;
		slot->jobs++;
	}
	return 0;
}

static void cowstorm_report(const struct wl_ctx *ctx, double wall_s)
{
	uint64_t pages = 0;
	for (long i = 0; i < ctx->p.users; i++)
		pages += ctx->slots[i].cow_pages;
	if (wall_s > 0)
		wl_metric("cow_faults_per_s", (double)pages / wall_s, "faults/s");
}

const struct workload wl_cowstorm = {
	.name = "cowstorm",
	.summary = "COW-fault storm: children of each user write every inherited page",
	.setup = aim7_setup,
	.user = cowstorm_user,
	.report = cowstorm_report,
};
