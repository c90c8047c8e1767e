/* forkstorm: fork/exit as fast as the kernel allows, the shape of
 * `stress-ng --fork N` so that the two can be compared point for point.
 * Each user loops fork(); the child exits at once; the user reaps it. */
#include "workload.h"

static void nothing(const struct wl_ctx *ctx, unsigned arg)
{
	(void)ctx;
	(void)arg;
}

static int forkstorm_user(struct wl_ctx *ctx, int id, struct wl_slot *slot)
{
	(void)id;
	while (!wl_should_stop(ctx, slot)) {
		int err = wl_fork_child(ctx, nothing, 0);
		if (err)
			return err;
		slot->forks++;
		slot->jobs++;
	}
	return 0;
}

const struct workload wl_forkstorm = {
	.name = "forkstorm",
	.summary = "fork/exit storm: each user forks a child that exits at once",
	.user = forkstorm_user,
};
