/* The workloads' engine backend: a user's map, write, read, fork and
 * compute become engine operations on the mm it runs in, each charged its
 * cost in virtual time. Addresses are engine page numbers times the
 * context's page size (sim_page_kib): never dereferenced. */
#include "machine.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

static struct machine *M(const struct wl_ctx *ctx)
{
	return (struct machine *)(void *)((char *)ctx - offsetof(struct machine, ctx));
}

static unsigned long page_of(const struct wl_ctx *ctx, const char *p)
{
	return (unsigned long)((uintptr_t)p / ctx->page_size);
}

static char *engine_map(const struct wl_ctx *ctx, size_t len)
{
	struct machine *m = M(ctx);
	struct task *t = m->cur;
	unsigned long pages = (len + ctx->page_size - 1) / ctx->page_size;
	unsigned long addr = t->next_addr;
	t->next_addr += pages + 1; /* a gap: no merge with the last mapping */
	int rc = do_mmap(&m->e, t->mm, addr, pages, VM_READ | VM_WRITE);
	sim_prof_op(m, "entry_SYSCALL_64;do_mmap", "anon_vma_prepare");
	vt_account(m, 0, false, m->mp.lock_ns);
	if (rc) {
		errno = -rc;
		return NULL;
	}
	return (char *)(uintptr_t)(addr * ctx->page_size);
}

static void engine_unmap(const struct wl_ctx *ctx, char *p, size_t len)
{
	struct machine *m = M(ctx);
	unsigned long pages = (len + ctx->page_size - 1) / ctx->page_size;
	do_munmap(&m->e, m->cur->mm, page_of(ctx, p), pages);
	sim_prof_op(m, "entry_SYSCALL_64;do_munmap", "unlink_anon_vmas");
	vt_account(m, 0, false, m->mp.lock_ns);
	vt_yield(m);
}

/* A fault: reclaim first if it allocates, then the engine's
 * handle_mm_fault; a swapped-out page is read from the device. */
static void fault(struct machine *m, unsigned long addr, bool write)
{
	struct pte *pte = pte_lookup(m->cur->mm, addr);
	bool allocates = write || (pte && pte->swap && pte->page->mapcount == 0);
	if (allocates)
		reclaim_before_alloc(m);
	pte = pte_lookup(m->cur->mm, addr); /* reclaim may have swapped it out */
	bool swapped = pte && pte->swap, major = swapped && pte->page->mapcount == 0;
	handle_mm_fault(&m->e, m->cur->mm, addr, write);
	double cpu = (swapped ? m->mp.swapin_ns : m->mp.fault_ns) * m->scale;
	sim_prof_op(m,
		    swapped ? "page_fault;handle_mm_fault;do_swap_page"
		    : write ? "page_fault;handle_mm_fault;do_wp_page"
			    : "page_fault;handle_mm_fault;do_anonymous_page",
		    "anon_vma_prepare");
	vt_account(m, cpu, false, m->mp.lock_ns);
	if (major) {
		m->major_faults++;
		m->pswpin += (uint64_t)m->scale;
		vt_io_wait(m, vt_swap_read(m, m->cur->ready));
	} else {
		m->minor_faults++;
	}
	vt_yield(m);
}

static void engine_write(const struct wl_ctx *ctx, char *p, unsigned char v)
{
	(void)v;
	struct machine *m = M(ctx);
	unsigned long addr = page_of(ctx, p);
	struct pte *pte = pte_lookup(m->cur->mm, addr);
	if (pte && !pte->swap && pte->page->mapcount + pte->page->swapcount == 1) {
		pte->young = true; /* a store to a page of its own: no fault */
		return;
	}
	fault(m, addr, true);
}

static unsigned char engine_read(const struct wl_ctx *ctx, const char *p)
{
	struct machine *m = M(ctx);
	unsigned long addr = page_of(ctx, p);
	struct pte *pte = pte_lookup(m->cur->mm, addr);
	if (pte && !pte->swap)
		pte->young = true;
	else if (pte)
		fault(m, addr, false);
	return 0; /* never written: the zero page */
}

static void engine_compute(const struct wl_ctx *ctx, long iters)
{
	struct machine *m = M(ctx);
	vt_account(m, (double)iters * m->mp.compute_ns, true, 0);
	vt_yield(m);
}

static int engine_fork_child(const struct wl_ctx *ctx, void (*fn)(const struct wl_ctx *, unsigned), unsigned arg)
{
	struct machine *m = M(ctx);
	struct task *t = m->cur;
	struct mm_struct *parent = t->mm;
	reclaim_before_alloc(m);
	double cost = m->mp.fork_ns + m->mp.fork_vma_ns * parent->nr_vmas;
	struct mm_struct *child = dup_mm(&m->e, parent);
	sim_prof_op(m, "entry_SYSCALL_64;do_fork;dup_mm", "anon_vma_fork");
	vt_account(m, cost, false, m->mp.lock_ns);
	if (!child)
		return ENOMEM;
	m->nproc++;
	vt_yield(m);
	unsigned long next = t->next_addr;
	t->mm = child;
	fn(ctx, arg);
	t->mm = parent;
	t->next_addr = next;
	exit_mmap(&m->e, child);
	m->nproc--;
	sim_prof_op(m, "entry_SYSCALL_64;do_exit;exit_mmap", "unlink_anon_vmas");
	vt_account(m, m->mp.exit_ns, false, m->mp.lock_ns);
	vt_yield(m);
	return 0;
}

static int engine_file_create(struct wl_ctx *ctx, size_t len)
{
	M(ctx)->file_kib = (double)len / 1024;
	ctx->file_len = len;
	return 0;
}

/* Reads at random over a file set larger than the cache hit in proportion
 * to what of it is cached: no file is kept, only how much is. A miss is a
 * page of cache allocated (and reclaimed for) and a read from the disk,
 * the same disk swap uses. */
static void engine_file_read(const struct wl_ctx *ctx, size_t off, size_t len)
{
	(void)off;
	struct machine *m = M(ctx);
	for (size_t done = 0; done < len; done += ctx->page_size) {
		double hit = m->file_kib > 0 ? m->cache_kib / m->file_kib : 1;
		m->file_pages_read += (uint64_t)m->scale;
		if ((double)(wl_rand(&m->rnd) % 1000000) / 1e6 < hit) {
			sim_prof_op(m, "entry_SYSCALL_64;generic_file_aio_read", NULL);
			vt_account(m, m->mp.copy_ns * m->scale, false, 0);
			vt_yield(m);
			continue;
		}
		reclaim_before_alloc(m);
		m->cache_kib += m->mp.page_kib;
		m->file_misses += (uint64_t)m->scale;
		sim_prof_op(m, "entry_SYSCALL_64;generic_file_aio_read", NULL);
		vt_account(m, m->mp.copy_ns * m->scale, false, 0);
		vt_io_wait(m, vt_swap_read(m, m->cur->ready));
		vt_yield(m);
	}
}

const struct wl_backend wl_engine_backend = {
	.file_create = engine_file_create,
	.file_read = engine_file_read,
	.name = "engine",
	.map = engine_map,
	.unmap = engine_unmap,
	.write = engine_write,
	.read = engine_read,
	.fork_child = engine_fork_child,
	.compute = engine_compute,
};
