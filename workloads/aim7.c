/* aim7: the AIM7-style multiuser load with the copy-on-write part AIM7 lacks.
 *
 * The parent maps and touches a shared anonymous region; every user is
 * forked from it, so every user's copy of the region hangs off the parent's
 * anon_vma family. A job is one task of the mix, dealt to each user by
 * weight and drawn without replacement, as re-aim-7's driver deals its
 * workfile (mix.h):
 *   cow      write cow_pages pages of the COW part of the shared region
 *   fork     fork a short-lived child that COW-writes child_kib and exits
 *   private  mmap, touch and munmap private_mib of fresh anonymous memory
 *   compute  a little arithmetic
 *   file     read file_kib at random from the file_mib file set (AIM7's
 *            disk tests: the page cache, and the disk when it misses)
 */
#include "workload.h"
#include "mix.h"

#include <errno.h>
#include <stdio.h>

static struct mix mix;

int aim7_setup(struct wl_ctx *ctx)
{
	char err[160];
	if (mix_parse(&mix, ctx->p.mix, err, sizeof(err)) < 0) {
		fprintf(stderr, "rmapbench-load: mix: %s\n", err);
		return -1;
	}
	if (ctx->p.file_mib > 0 && ctx->be->file_create(ctx, (size_t)ctx->p.file_mib << 20) < 0) {
		perror("rmapbench-load: the file set");
		return -1;
	}
	ctx->shared_len = ctx->p.shared_kib > 0 ? (size_t)ctx->p.shared_kib << 10 : (size_t)ctx->p.shared_mib << 20;
	if (ctx->p.family_kib > 0) {
		size_t share = ((size_t)ctx->p.family_kib << 10) / (size_t)ctx->p.users;
		share -= share % ctx->page_size;
		ctx->shared_len = share > ctx->page_size ? share : ctx->page_size;
	}
	if (!ctx->shared_len)
		return 0;
	ctx->shared = wl_map(ctx, ctx->shared_len);
	if (!ctx->shared) {
		perror("rmapbench-load: mmap shared region");
		return -1;
	}
	wl_touch(ctx, ctx->shared, ctx->shared_len, 1);
	return 0;
}

static size_t cow_span(const struct wl_ctx *ctx)
{
	size_t span = (size_t)((double)ctx->shared_len * ctx->p.cow_fraction);
	return span - span % ctx->page_size;
}

/* Writes n pages of the COW part starting at a random page; returns pages. */
static uint64_t cow_write(const struct wl_ctx *ctx, unsigned *rnd, long n, unsigned char v)
{
	size_t span = cow_span(ctx), pg = ctx->page_size;
	if (!span)
		return 0;
	size_t pages = span / pg, first = wl_rand(rnd) % pages;
	uint64_t done = 0;
	for (long i = 0; i < n; i++, done++)
		wl_write(ctx, ctx->shared + ((first + (size_t)i) % pages) * pg, v);
	return done;
}

static void job_child(const struct wl_ctx *ctx, unsigned seed)
{
	unsigned rnd = seed;
	cow_write(ctx, &rnd, (long)(((size_t)ctx->p.child_kib << 10) / ctx->page_size), 3);
}

int aim7_task(struct wl_ctx *ctx, struct wl_slot *slot, unsigned *rnd, enum task t)
{
	switch (t) {
	case TASK_COW:
		slot->cow_pages += cow_write(ctx, rnd, ctx->p.cow_pages, 2);
		return 0;
	case TASK_FORK: {
		int err = wl_fork_child(ctx, job_child, wl_rand(rnd));
		if (!err)
			slot->forks++;
		return err;
	}
	case TASK_PRIVATE: {
		size_t len = (size_t)ctx->p.private_mib << 20;
		if (!len)
			return 0;
		char *p = wl_map(ctx, len);
		if (!p)
			return errno;
		wl_touch(ctx, p, len, 4);
		wl_unmap(ctx, p, len);
		return 0;
	}
	case TASK_COMPUTE:
		wl_compute(ctx, ctx->p.compute_iters);
		return 0;
	case TASK_FILE: {
		size_t set = (size_t)ctx->p.file_mib << 20, len = (size_t)ctx->p.file_kib << 10;
		if (!set || !len)
			return 0;
		size_t chunks = set / ctx->page_size, n = (len + ctx->page_size - 1) / ctx->page_size;
		size_t first = chunks > n ? wl_rand(rnd) % (chunks - n + 1) : 0;
		wl_file_read(ctx, first * ctx->page_size, n * ctx->page_size < set ? n * ctx->page_size : set);
		return 0;
	}
	}
	return EINVAL;
}

static int aim7_user(struct wl_ctx *ctx, int id, struct wl_slot *slot)
{
	unsigned rnd = ctx->p.seed * 2654435761u + (unsigned)id + 1;
	struct mix_deck deck = { 0 };
	while (!wl_should_stop(ctx, slot)) {
		int err = aim7_task(ctx, slot, &rnd, mix_draw(&mix, &deck, ctx, &rnd));
		if (err)
			return err;
		slot->jobs++;
	}
	return 0;
}

const struct workload wl_aim7 = {
	.name = "aim7",
	.summary = "AIM7-style multiuser fork+COW load: jobs dealt from a weighted mix",
	.setup = aim7_setup,
	.user = aim7_user,
};
