/* oopshunt: the 2.6.34-rc anon_vma bugs' operation sequences
 * (ANON_VMA_HISTORY.md, "The four bugs") as real syscalls, so that a real
 * kernel with one of them back shows it, and userspace checks that need
 * no debug kernel.
 *
 * A job is one family's region R, in the user (A):
 *
 *   A: mmap R, fill every page with its own pattern
 *   A: mprotect R's middle read-only and back    split, then merge
 *   A: MADV_PAGEOUT R                             R's pages go to swap
 *   A: fork B                 B: [fork C; C is the first reader]
 *                             first reader: [mremap R away] read and
 *                               check every page (a swap-in: the page's
 *                               anon_vma is set here), split and merge,
 *                               tell A
 *   A: read and check every page (the same swap cache pages)
 *   A: tell the children, reap them: their anon_vmas are freed
 *   A: MADV_PAGEOUT R, again until nothing is resident
 *      a page A alone maps that stays resident is "unreclaimable":
 *      the rmap lost A's mapping (bug 1's dangling anon_vma)
 *   A: read and check every page, munmap R
 *
 * The first reader is B (bug 1), C (bug 4: a grandchild faults first) or
 * B after moving R with mremap (the clone on a move, bug 3's kin), drawn
 * from the seed. Other users are unrelated families doing the same, so
 * freed anon_vmas are reused meanwhile; the guest's or the cgroup's
 * pressure makes reclaim walk everything again.
 *
 * Native only: mprotect, mremap, madvise and /proc/self/pagemap are the
 * point, and the simulator has none of them (the engine replays the same
 * bugs as `rmapbench engine scenario`). */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PM_PRESENT (1ULL << 63)
#define PM_SWAP (1ULL << 62)
#define PM_EXCLUSIVE (1ULL << 56)
#define PAGEOUT_TRIES 4

enum first_reader { FIRST_CHILD, FIRST_GRANDCHILD, FIRST_AFTER_MREMAP, FIRST_KINDS };

struct family {
	const struct wl_ctx *ctx;
	struct wl_slot *slot;
	char *r;
	size_t len, pages;
	uint64_t tag;
	int pagemap;
};

/* Word k of page i of the family's region: no two pages alike. */
static uint64_t pattern(const struct family *f, size_t i, size_t k)
{
	uint64_t x = f->tag ^ ((uint64_t)i << 20) ^ (uint64_t)k;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	return x ^ (x >> 29);
}

static void fill(const struct family *f)
{
	for (size_t i = 0; i < f->pages; i++) {
		uint64_t *w = (uint64_t *)(f->r + i * f->ctx->page_size);
		for (size_t k = 0; k < 8; k++)
			w[k] = pattern(f, i, k);
	}
}

/* Reads (a fault, a swap-in) and checks every page of base, which holds
 * the family's region, perhaps moved: wrong pages into the slot, the
 * first one's address kept. Shared with children: the slot is MAP_SHARED. */
static void check(const struct family *f, const char *base)
{
	for (size_t i = 0; i < f->pages; i++) {
		const volatile uint64_t *w = (const volatile uint64_t *)(base + i * f->ctx->page_size);
		for (size_t k = 0; k < 8; k++) {
			if (w[k] == pattern(f, i, k))
				continue;
			uint64_t none = 0;
			__atomic_compare_exchange_n(&f->slot->check_first_addr, &none, (uint64_t)(uintptr_t)w, 0,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
			__atomic_fetch_add(&f->slot->check_wrong, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	__atomic_fetch_add(&f->slot->pages_read, f->pages, __ATOMIC_RELAXED);
}

/* mprotect's split of the middle and the merge back (vma_adjust, and the
 * anon_vma_clone of each new piece). */
static int split_merge(const struct family *f, char *base)
{
	size_t quarter = (f->pages / 4) * f->ctx->page_size;
	if (!quarter)
		return 0;
	if (mprotect(base + quarter, 2 * quarter, PROT_READ) < 0 ||
	    mprotect(base + quarter, 2 * quarter, PROT_READ | PROT_WRITE) < 0)
		return errno;
	return 0;
}

static uint64_t pagemap_entry(const struct family *f, size_t i)
{
	uint64_t e = 0;
	off_t off = (off_t)(((uintptr_t)f->r / f->ctx->page_size + i) * sizeof(e));
	return pread(f->pagemap, &e, sizeof(e), off) == (ssize_t)sizeof(e) ? e : 0;
}

/* Pages of R resident that A alone maps: what a pageout must take. */
static size_t resident_exclusive(const struct family *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->pages; i++) {
		uint64_t e = pagemap_entry(f, i);
		n += (e & PM_PRESENT) && (e & PM_EXCLUSIVE);
	}
	return n;
}

static size_t swapped(const struct family *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->pages; i++)
		n += !!(pagemap_entry(f, i) & PM_SWAP);
	return n;
}

/* MADV_PAGEOUT until none of A's own pages is resident, a few times: a
 * page can be passed over once (locked, or not yet on an LRU list); a
 * page whose mapping the rmap cannot find is passed over every time. */
static size_t page_out(const struct family *f)
{
	size_t left = f->pages;
	for (int t = 0; t < PAGEOUT_TRIES && left; t++) {
		if (madvise(f->r, f->len, MADV_PAGEOUT) < 0)
			return 0;
		left = resident_exclusive(f);
		if (left)
			usleep(2000);
	}
	return left;
}

static void die_with(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(99);
}

static void reap(pid_t pid)
{
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static void say(int fd)
{
	char c = 1;
	while (write(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static void hear(int fd)
{
	char c;
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

/* The first reader: faults R in before A does, then waits for A. */
static void first_reader(const struct family *f, enum first_reader how, int done, int go)
{
	char *base = f->r;
	if (how == FIRST_AFTER_MREMAP) {
		void *to = mremap(f->r, f->len, f->len, MREMAP_MAYMOVE);
		if (to != MAP_FAILED)
			base = to;
	}
	check(f, base);
	split_merge(f, base);
	say(done);
	hear(go);
}

/* B, and in FIRST_GRANDCHILD C under it; exits, never returns. */
static void child(const struct family *f, enum first_reader how, int done, int go, pid_t a)
{
	die_with(a);
	if (how != FIRST_GRANDCHILD) {
		first_reader(f, how, done, go);
		_exit(0);
	}
	pid_t b = getpid(), c = fork();
	if (c == 0) {
		die_with(b);
		first_reader(f, how, done, go);
		_exit(0);
	}
	if (c < 0)
		say(done); /* A must not wait for a reader that never was */
	reap(c);
	_exit(c < 0);
}

/* Forks the family, lets its first reader fault R in, reads R after it,
 * and reaps the family: 0 or an errno. */
static int family_fork(struct family *f, enum first_reader how)
{
	int done[2], go[2];
	if (pipe(done) < 0)
		return errno;
	if (pipe(go) < 0) {
		int err = errno;
		close(done[0]);
		close(done[1]);
		return err;
	}
	pid_t a = getpid(), b = fork();
	if (b == 0) {
		close(done[0]);
		close(go[1]);
		child(f, how, done[1], go[0], a);
	}
	int err = b < 0 ? errno : 0;
	close(done[1]);
	close(go[0]);
	if (b > 0) {
		hear(done[0]);
		check(f, f->r);
		say(go[1]);
		f->slot->forks += 1 + (how == FIRST_GRANDCHILD);
	}
	close(done[0]);
	close(go[1]);
	reap(b);
	return err;
}

static int family_job(struct family *f, unsigned *rnd)
{
	f->r = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f->r == MAP_FAILED)
		return errno;
	f->tag = ((uint64_t)wl_rand(rnd) << 32) | wl_rand(rnd);
	fill(f);
	int err = split_merge(f, f->r);
	if (!err) {
		page_out(f);
		size_t out = swapped(f);
		f->slot->pages_swapped += out;
		err = family_fork(f, (enum first_reader)(wl_rand(rnd) % FIRST_KINDS));
		/* Only a pageout that worked before says anything now: without
		 * swap nothing goes out either way. */
		if (!err && out) {
			size_t stuck = page_out(f);
			if (stuck && !f->slot->check_stuck)
				f->slot->check_stuck_addr = (uint64_t)(uintptr_t)f->r;
			f->slot->check_stuck += stuck;
		}
		if (!err)
			check(f, f->r);
	}
	munmap(f->r, f->len);
	return err;
}

static int oopshunt_user(struct wl_ctx *ctx, int id, struct wl_slot *slot)
{
	unsigned rnd = ctx->p.seed * 2654435761u + (unsigned)id + 1;
	struct family f = { .ctx = ctx, .slot = slot };
	f.pages = (size_t)ctx->p.hunt_kib * 1024 / ctx->page_size;
	f.len = f.pages * ctx->page_size;
	f.pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (f.pagemap < 0)
		return errno;
	int err = 0;
	while (!err && !wl_should_stop(ctx, slot)) {
		err = family_job(&f, &rnd);
		slot->jobs += !err;
	}
	close(f.pagemap);
	return err;
}

static void oopshunt_report(const struct wl_ctx *ctx, double wall_s)
{
	(void)wall_s;
	uint64_t wrong = 0, stuck = 0, out = 0, read = 0;
	for (long i = 0; i < ctx->p.users; i++) {
		const struct wl_slot *s = &ctx->slots[i];
		wrong += s->check_wrong;
		stuck += s->check_stuck;
		out += s->pages_swapped;
		read += s->pages_read;
		if (s->check_wrong && wrong == s->check_wrong)
			printf("info oopshunt_first_wrong_page user %ld, address 0x%llx\n", i,
			       (unsigned long long)s->check_first_addr);
		if (s->check_stuck && stuck == s->check_stuck)
			printf("info oopshunt_first_unreclaimable user %ld, region at 0x%llx\n", i,
			       (unsigned long long)s->check_stuck_addr);
	}
	wl_metric("oopshunt_pages_checked", (double)read, "pages");
	wl_metric("oopshunt_wrong_pages", (double)wrong, "pages");
	wl_metric("oopshunt_pages_swapped_out", (double)out, "pages");
	if (out)
		wl_metric("oopshunt_unreclaimable_pages", (double)stuck, "pages");
	else
		wl_unavailable("oopshunt_unreclaimable_pages",
			       "no page went to swap: the kernel has no swap (zram_mib, swap) or no MADV_PAGEOUT");
}

const struct workload wl_oopshunt = {
	.name = "oopshunt",
	.summary = "the 2010 anon_vma bugs' sequences: fork, swap-in by a child first, its exit, pageout; checked",
	.user = oopshunt_user,
	.report = oopshunt_report,
	.native_only = true,
};
