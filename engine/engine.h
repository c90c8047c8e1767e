/* The userspace rmap engine: the kernel's objects, a generic VM around
 * them split as the kernel's own files are (vma.c, memory.c, mmap.c,
 * mprotect.c, mremap.c, fork.c, rmap.c, vmscan.c), and one file per
 * historical anon_vma design behind struct rmap_ops.
 *
 * Addresses are in pages. An anonymous vma's vm_pgoff is its vm_start at
 * mmap time, as in the kernel, so page->index is the linear page index.
 * Single-threaded: every operation runs to completion before the next.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include "list.h"

/* A real lock, instrumented as lock_stat instruments one. It is a
 * reader-writer lock because 6.1's anon_vma->rwsem is one (rmap walks take
 * it shared); the older designs' spinlock is its write side alone. Readers
 * count with atomics, as several may hold it at once. */
struct engine_lock {
	pthread_rwlock_t rw;
	uint64_t acquisitions, contentions, wait_ns, hold_ns, t_acquired;
	/* sim/'s virtual time: when the writer, and the last reader, let go */
	double vt_write_free, vt_read_free;
};

struct lock_totals {
	uint64_t acquisitions, contentions, wait_ns, hold_ns;
};

#define VM_READ 0x1UL
#define VM_WRITE 0x2UL
#define VM_EXEC 0x4UL
#define VM_ACCESS_FLAGS (VM_READ | VM_WRITE | VM_EXEC)

struct engine;
struct anon_vma;

struct page {
	struct anon_vma *mapping;  /* the kernel's mapping & ~PAGE_MAPPING_ANON */
	unsigned long index;       /* linear page index */
	int mapcount;              /* present ptes */
	int swapcount;             /* swap ptes: the page is in the swap cache */
	bool anon_exclusive;       /* modern: PageAnonExclusive */
	int pin;                   /* held by a walker: freeing waits for it */
	bool dead;                 /* unmapped and out of swap while pinned */
	bool active;               /* PG_active: on the active anon list (2.6.33 put a
				    * new anon page there, a swapped-in one on the
				    * inactive list); only reclaim in sim/ reads it */
	uint64_t id;
	struct list_head lru;      /* engine->pages */
};

struct pte {
	unsigned long addr;        /* 0 = empty slot (address 0 is never mapped) */
	struct page *page;
	bool swap;                 /* a swap entry for page, not a present pte */
	bool young;                /* the accessed bit: set by a fault or an access,
				    * tested and cleared by page_referenced */
};

struct mm_struct {
	int id;
	struct list_head mmap;     /* vmas, sorted by address */
	struct list_head mmlist;   /* engine->mms */
	struct pte *ptes;          /* open addressing on addr */
	size_t nr_ptes, cap_ptes;
	int nr_vmas;
};

struct vm_area_struct {
	unsigned long vm_start, vm_end, vm_pgoff;
	unsigned long vm_flags;
	struct mm_struct *vm_mm;
	struct list_head vm_list;          /* mm->mmap */
	struct anon_vma *anon_vma;
	struct list_head anon_vma_chain;   /* avc designs: same_vma list */
	struct list_head anon_vma_node;    /* legacy: on anon_vma->head */
	int id;
};

struct anon_vma {
	struct list_head head;             /* legacy: vmas; avc designs: chains */
	/* modern (6.1) only */
	struct anon_vma *root, *parent;
	int refcount;
	unsigned long num_children, num_active_vmas;
	struct anon_vma_chain *rb_root;    /* the interval tree of chains */
	uint64_t it_seq;                   /* insertions so far */
	/* the engine's own */
	bool freed;                        /* kept in quarantine, as KASAN does */
	unsigned long chk_children, chk_active; /* the checker's own tallies */
	int chk_refs;
	uint64_t id;
	struct engine_lock lock;           /* anon_vma->lock, or the root rwsem */
	struct list_head all;              /* engine->anon_vmas, for the checker */
};

struct anon_vma_chain {
	struct vm_area_struct *vma;
	struct anon_vma *anon_vma;
	struct list_head same_vma;         /* locked by mmap_lock */
	struct list_head same_anon_vma;    /* locked by anon_vma->lock (rwsem) */
	/* modern: a node of the anon_vma's interval tree (interval_tree.h):
	 * the interval cached at insertion, the order among equal starts,
	 * and the largest last pgoff of the subtree */
	struct anon_vma_chain *rb_left, *rb_right;
	unsigned long it_start, it_last, rb_subtree_last;
	uint64_t it_seq;
	unsigned it_prio;
};

/* What a walk visits: rmap_one once per VMA the design offers for the
 * page (after vma_address filtering); returning false stops the walk, as
 * the kernel's walks stop once every mapping has been found. */
struct rmap_walk_control {
	bool (*rmap_one)(struct engine *e, struct page *page, struct vm_area_struct *vma, unsigned long address,
			 void *arg);
	void *arg;
	struct anon_vma *anon_vma; /* what page_lock_anon_vma found: the walk's anon_vma */
};

struct rmap_ops {
	const char *name;
	const char *release;
	bool has_known_bugs;   /* avc-rc: its faults are the point, not a regression */
	/* mm/mmap.c's half of a design: which neighbour's anon_vma a first
	 * fault may reuse (the 2.6.34-rc bug 2 spot) */
	struct anon_vma *(*find_mergeable_anon_vma)(struct engine *e, struct vm_area_struct *vma);
	int (*anon_vma_prepare)(struct engine *e, struct vm_area_struct *vma);
	int (*anon_vma_fork)(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *pvma);
	int (*anon_vma_clone)(struct engine *e, struct vm_area_struct *dst, struct vm_area_struct *src);
	void (*unlink_anon_vmas)(struct engine *e, struct vm_area_struct *vma);
	void (*anon_vma_merge)(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next);
	/* vma_adjust: give the importer the exporter's anon_vma (the bug-3 spot) */
	int (*vma_adjust_import)(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *importer,
				 struct vm_area_struct *exporter);
	bool (*is_mergeable_anon_vma)(struct anon_vma *a1, struct anon_vma *a2, struct vm_area_struct *vma);
	void (*page_add_new_anon_rmap)(struct engine *e, struct page *page, struct vm_area_struct *vma,
				       unsigned long address);
	void (*page_add_anon_rmap)(struct engine *e, struct page *page, struct vm_area_struct *vma,
				   unsigned long address);
	void (*page_move_anon_rmap)(struct engine *e, struct page *page, struct vm_area_struct *vma);
	void (*rmap_walk_anon)(struct engine *e, struct page *page, struct rmap_walk_control *rwc);
	/* for the checker: is vma on the anon_vma's list (or tree) for index? */
	bool (*anon_vma_reaches)(struct anon_vma *av, struct vm_area_struct *vma, unsigned long index);
	void (*check)(struct engine *e); /* the design's own invariants */
	/* vma_adjust and split_vma move vma's (and next's) boundaries between
	 * these two: modern takes the chains out of its interval trees and
	 * puts them back (NULL in the list designs) */
	void (*vma_interval_pre_update)(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next);
	void (*vma_interval_post_update)(struct engine *e, struct vm_area_struct *vma, struct vm_area_struct *next);
};

extern const struct rmap_ops rmap_legacy, rmap_avc_rc, rmap_avc, rmap_modern;
/* rmap_variants[] (engine.c) lists the designs, legacy first (the fuzzer's
 * oracle), NULL-terminated: at most RMAP_MAX_VARIANTS. */
#define RMAP_MAX_VARIANTS 8
const struct rmap_ops *rmap_ops_find(const char *name);
extern const struct rmap_ops *const rmap_variants[];

/* Allocation caches, counted per cache as the kernel's harnesses do. */
enum cache { C_MM, C_VMA, C_ANON_VMA, C_AVC, C_PAGE, NR_CACHES };

struct fault {
	char kind[32];
	char detail[256];
	uint64_t op;
};

struct walk_stats {
	uint64_t walks, anon_vmas_locked, vmas_visited, vmas_scanned;
};

struct engine {
	const struct rmap_ops *ops;
	struct list_head mms, pages, anon_vmas;
	int next_mm, next_vma;
	uint64_t next_page, next_anon_vma;
	uint64_t ops_done;
	uint64_t live[NR_CACHES], allocs[NR_CACHES];
	size_t bytes[NR_CACHES];
	uint64_t fail_alloc_at;   /* > 0: the nth allocation from now fails */
	bool check_each_op;       /* run the invariant checker after each op */
	/* Free anon_vmas at once, not into quarantine: for long single-
	 * threaded runs (benchmarks), where a million forks would otherwise
	 * keep a million anon_vmas and time the heap's growth. Walkers on
	 * other threads, and the checker's freed-anon_vma reports, need the
	 * quarantine. */
	bool no_quarantine;
	struct walk_stats ws;
	uint64_t nr_mapped_pages; /* pages with a present pte: the resident anon memory */
	/* Called at each anon_vma lock taken (shared: a walk's read side),
	 * for a caller that charges lock hold time (sim/, virtual time). */
	void (*lock_hook)(void *arg, struct anon_vma *av, bool shared);
	void *lock_hook_arg;
	struct fault *faults;
	size_t nfaults, cap_faults, faults_dropped;
	char history[16][96];     /* the last operations, for fault reports */
	/* A known latent bug of the design reached (engine/findings/): its
	 * name and how often. The code goes on as the kernel did. */
	const char *finding;
	uint64_t nfindings;
	unsigned hist_pos;
	struct lock_totals locks; /* of freed anon_vmas, and live ones at the end */
	pthread_mutex_t stats_lock;
	/* Threaded runs only (engine_set_threaded): the lock order is
	 * anon_vma lock -> ptl -> lru_lock -> stats_lock, as in the kernel
	 * (anon_vma->rwsem, then the page table lock, then the lru lock). */
	bool threaded;
	pthread_mutex_t ptl;      /* every pte, page count and mapping, vma boundaries */
	pthread_mutex_t lru_lock; /* e->pages, page pins and frees */
};

/* alloc.c */
void *engine_alloc(struct engine *e, enum cache c);
void engine_free(struct engine *e, enum cache c, void *p);
extern const char *const cache_names[NR_CACHES];
extern const size_t cache_sizes[NR_CACHES];

/* engine.c */
void engine_init(struct engine *e, const struct rmap_ops *ops);
void engine_destroy(struct engine *e);

/* fault.c */
void engine_fault(struct engine *e, const char *kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
struct fault_kind {
	const char *name, *meaning;
};
extern const struct fault_kind fault_kinds[]; /* ends with { NULL, NULL } */
bool fault_kind_known(const char *kind);
/* Notes that the state a known finding starts from has been reached. */
void engine_finding(struct engine *e, const char *name);
void engine_note_op(struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool engine_has_fault(const struct engine *e, const char *kind);
size_t engine_fault_count(const struct engine *e);

/* anon_vma.c */
struct anon_vma *anon_vma_alloc_common(struct engine *e);
void anon_vma_free_common(struct engine *e, struct anon_vma *av);
struct anon_vma_chain *anon_vma_chain_alloc(struct engine *e);
void anon_vma_chain_free(struct engine *e, struct anon_vma_chain *avc);

/* lock.c */
void engine_set_threaded(struct engine *e);
void ptl_lock(struct engine *e);
void ptl_unlock(struct engine *e);
void anon_vma_lock(struct engine *e, struct anon_vma *av);
void anon_vma_unlock(struct engine *e, struct anon_vma *av);
void anon_vma_down_read(struct engine *e, struct anon_vma *av);
void anon_vma_up_read(struct engine *e, struct anon_vma *av);

/* pagetable.c */
struct pte *pte_lookup(struct mm_struct *mm, unsigned long addr);
struct pte *pte_install(struct engine *e, struct mm_struct *mm, unsigned long addr);
void pte_clear(struct mm_struct *mm, unsigned long addr);
/* The addresses of [start, start+len) that have a pte, ascending, in a
 * malloc'd array (*n of them; NULL: no memory). A range wider than the
 * table (a trace may name 2^36 pages) is read from the table, not page by
 * page. */
unsigned long *pte_range(struct mm_struct *mm, unsigned long start, unsigned long len, size_t *n);

/* The VM, with the kernel's names where it has one. */
/* vma.c */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *vma_next(struct mm_struct *mm, struct vm_area_struct *vma);
struct vm_area_struct *vma_prev(struct mm_struct *mm, struct vm_area_struct *vma);
unsigned long vma_address(struct page *page, struct vm_area_struct *vma); /* 0 when outside */
/* memory.c */
int handle_mm_fault(struct engine *e, struct mm_struct *mm, unsigned long addr, bool write);
void free_page_if_unused(struct engine *e, struct page *page);
int madvise_dontneed(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len);
struct page *page_pin_next(struct engine *e, struct page *cur);
/* mmap.c */
struct vm_area_struct *anon_vma_compatible_neighbour(struct engine *e, struct vm_area_struct *vma, bool after);
int do_mmap(struct engine *e, struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long flags);
int do_munmap(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len);
void exit_mmap(struct engine *e, struct mm_struct *mm);
/* mprotect.c, mremap.c */
int do_mprotect(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long flags);
int do_mremap(struct engine *e, struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long new_addr);
/* fork.c */
struct mm_struct *mm_alloc(struct engine *e);
struct mm_struct *dup_mm(struct engine *e, struct mm_struct *oldmm);
/* rmap.c */
int page_referenced(struct engine *e, struct page *page);
bool try_to_unmap(struct engine *e, struct page *page);
void rmap_walk_full(struct engine *e, struct page *page);
bool rmap_walk_begin(struct engine *e, struct page *page, struct anon_vma *anon_vma);
void rmap_walk_end(struct engine *e);
/* vmscan.c */
int shrink_mm(struct engine *e, struct mm_struct *mm, unsigned long start, unsigned long len);

/* check.c: CONFIG_DEBUG_VM in userspace; returns faults found */
size_t engine_check(struct engine *e);

#endif
