/* The simulated machine, shared by the simulator's files: tasks on
 * virtual CPUs (vtime.c), the workload backend (backend.c), reclaim
 * (reclaim.c) and a point's run (run.c). Times are virtual nanoseconds. */
#ifndef RMAPBENCH_MACHINE_H
#define RMAPBENCH_MACHINE_H

#include "engine.h"
#include "sim.h"
#include "timeline.h"
#include "workload.h"

#include <stdbool.h>
#include <stdint.h>

struct coro;

struct task {
	int id;                  /* the user's; -1 for kswapd and the parent */
	double ready;            /* when it may run again */
	struct coro *co;         /* users only */
	struct mm_struct *mm;    /* what it runs in: its own mm or a job child's */
	unsigned long next_addr; /* where its next mapping goes (engine pages) */
	double user_ns, sys_ns;
	int cpu;                 /* the CPU of its last operation */
	double slice_end;        /* it keeps that CPU until then, unless it blocks */
	size_t heap_i;
	bool queued, done;
};

struct lock_taken {
	struct engine_lock *l;
	bool shared;
	int n;
};

/* The lists shrink_zone scans, as 2.6.33 names them. The page cache is one
 * list here, the inactive file one: pages read once at random stay there. */
#define SWAP_CLUSTER_MAX 32 /* kernel pages */
#define DEF_PRIORITY 12
#define CONGESTION_WAIT_NS 100e6 /* congestion_wait(BLK_RW_ASYNC, HZ/10) */

enum sim_lru { SIM_INACTIVE_ANON, SIM_ACTIVE_ANON, SIM_INACTIVE_FILE, SIM_NR_LRU };

/* The zones a user page can be in on x86_64: ZONE_DMA32 (RAM below 4 GiB)
 * and ZONE_NORMAL (the rest). 2.6.33 kept the LRU lists, their reclaim
 * statistics and inactive_ratio per zone, and reclaim ran shrink_zone zone
 * by zone. ZONE_DMA (16 MiB) is left out: its lowmem_reserve against a
 * Normal allocation, RAM / 256, exceeds its size once RAM passes 4 GiB,
 * so no user page lands there; on a smaller box 16 MiB is noise. A page's
 * zone is drawn by the zones' shares of RAM (reclaim.c). */
enum sim_zone_idx { SIM_ZONE_DMA32, SIM_ZONE_NORMAL, SIM_NR_ZONES };

struct sim_zone {
	double share;            /* of RAM; the zone's watermarks, cache and free are this share */
	double inactive_ratio;   /* calculate_zone_inactive_ratio: int_sqrt(10 x the zone's GiB) */
	double nr_active_anon, nr_inactive_anon; /* engine pages, recounted now and then */
	double recent_scanned[2], recent_rotated[2]; /* anon, file: zone->reclaim_stat */
	double nr_saved_scan[SIM_NR_LRU]; /* nr_scan_try_batch's, kernel pages */
	double scan_carry[SIM_NR_LRU];    /* what of a count is short of an engine page */
	struct page *hand;       /* reclaim's clock over the zone's inactive anon pages */
	struct page *age_hand;   /* and over its active ones, for aging */
};

/* One shrink_zone call under way, in engine pages: what it still has to
 * scan of each of its zone's lists, and the SWAP_CLUSTER_MAX of active
 * anon it ages at its end when the inactive list is low (reclaim.c). */
struct shrink_plan {
	double nr[SIM_NR_LRU];
	int zone, age_zone;      /* the zone shrunk; the one balance_pgdat ages first */
	int priority, turn, chunk_left;
	double to_reclaim, reclaimed, scanned, tail;
	double age_left; /* balance_pgdat's aging before the call, still to do */
	bool tail_set, active;
};

#define SIM_PROF_STACKS 96

struct machine {
	struct sim_params mp;
	struct engine e;
	struct wl_ctx ctx;
	const struct workload *w;
	double scale;            /* 4 KiB pages per engine page */
	bool lock_sleeps;        /* 6.1's rwsem: a waiter sleeps; else it spins */
	double slice_ns;         /* CFS's timeslice under load */
	bool untimed;            /* setup: engine work without time */
	double *cpu_free;        /* per virtual CPU: when it is next free */
	struct task **heap;      /* tasks by the time they are next ready */
	size_t nheap;
	struct task **runq;      /* ready, waiting for a CPU: a ring, FIFO */
	size_t runq_cap, runq_head, nrunq;
	struct task *cur, kswapd, parent, filler;
	bool kswapd_awake;
	struct shrink_plan kswapd_plan; /* balance_pgdat's shrink_zone under way */
	int kswapd_priority, kswapd_zone; /* and the zone of its pass it is at */
	double kswapd_pass_freed, kswapd_pass_scanned;
	/* anon_vma locks the current operation took (engine lock_hook) */
	struct lock_taken locks[8];
	int nlocks;
	/* memory, KiB */
	double ram_kib, min_kib, low_kib, high_kib;
	long nproc;
	double cache_kib;        /* clean page cache: reclaimable without a walk or a write */
	double file_kib;         /* the workload's file set; reads miss the cache in
				  * proportion to what of it is not cached */
	unsigned rnd;            /* the file reads' hits and misses */
	uint64_t file_pages_read, file_misses;
	double peak_used_kib;    /* anon and kernel memory at its highest */
	struct sim_zone zones[SIM_NR_ZONES];
	int nr_zones;            /* populated, from SIM_ZONE_DMA32 up */
	uint64_t count_age;
	double dev_free_at;      /* the swap device's queue */
	struct timeline tl;      /* CPU time busy and tasks' IO waits, over time */
	/* totals */
	double user_ns, sys_ns, spin_ns, lock_wait_ns;
	uint64_t contentions, acquisitions, pswpin, pswpout, pgscan, pgsteal, allocstall, kswapd_wakeups;
	uint64_t major_faults, minor_faults, cache_evicted, overcommits;
	bool overrun;            /* a task passed max_virtual_s */
	/* sim_profile: the operation under way as the modelled kernel's
	 * stack, and the function its lock holds are charged to (profile.c) */
	char prof_op[160];
	const char *prof_hold;
	struct sim_prof {
		char stack[200];
		double ns;
	} prof[SIM_PROF_STACKS];
	int nprof;
	bool census_done;
	uint64_t census_walks, census_vmas, census_pages;
};

/* profile.c (sim_profile=1): the operation the current task starts, as
 * the modelled kernel's functions from the entry ("page_fault;
 * handle_mm_fault;do_wp_page"), and the function its anon_vma lock holds
 * are charged to; then ns of it with leaf under it (NULL: the operation's
 * own CPU), and the stacks reported as "info sim_profile_N NS STACK". */
void sim_prof_op(struct machine *m, const char *op, const char *hold);
void sim_prof_add(struct machine *m, const char *leaf, double ns);
void sim_prof_report(const struct machine *m);

/* vtime.c: the current task runs cpu_ns on a CPU (user or system time),
 * then each lock the operation took, held hold_ns per acquisition: it
 * waits for a lock as the design's lock waits. Advances its ready time;
 * does not yield. */
void vt_account(struct machine *m, double cpu_ns, bool user, double hold_ns);
/* The current task sleeps on the swap device until `until`. */
void vt_io_wait(struct machine *m, double until);
/* A user gives the scheduler back control (kswapd never runs in a coroutine). */
void vt_yield(struct machine *m);
void vt_push(struct machine *m, struct task *t);
struct task *vt_pop(struct machine *m);
/* The task whose operation starts next, in virtual time: one ready while
 * a CPU is free, else the run queue's first when a CPU frees. Operations
 * are so carried out in the order they start, and what one sees (free
 * memory, a lock's holder) is what was there at its start. */
struct task *vt_next(struct machine *m);
void vt_lock_hook(void *arg, struct anon_vma *av, bool shared);
double vt_free_kib(const struct machine *m);
/* The swap device: a read's completion, a write queued. */
double vt_swap_read(struct machine *m, double at);
void vt_swap_write(struct machine *m, double at);

/* reclaim.c: shrink_zone, as a plan a reclaimer carries out a page at a
 * time (kswapd between the others' operations, a direct reclaimer
 * yielding between its walks). age_zone, unless -1: balance_pgdat's
 * SWAP_CLUSTER_MAX of aging of that zone before the call, when its
 * inactive anon list is low. */
void shrink_zone_begin(struct machine *m, struct shrink_plan *sp, int zone, int priority, double to_reclaim,
		       int age_zone);
/* The plan's next page: 1 freed, 0 not, -1 the call is over. */
int shrink_zone_step(struct machine *m, struct shrink_plan *sp);
bool inactive_anon_is_low(const struct machine *m, int zone);
/* The zones' shares and inactive ratios, from RAM and sim_dma32_mib. */
void zones_init(struct machine *m);

/* kswapd.c: balance_pgdat, try_to_free_pages and the cache filler */
void reclaim_wake_kswapd(struct machine *m);
void kswapd_step(struct machine *m);
/* Before an allocation: wakes kswapd under the low mark, reclaims in the
 * allocating task under the min mark (a direct reclaim). */
void reclaim_before_alloc(struct machine *m);
/* The box's file IO: every FILL_STEP of virtual time, sim_cache_mbps worth
 * of page cache, allocated (and so reclaimed for) like any page. */
#define FILL_STEP_NS 10e6
void filler_step(struct machine *m);

/* backend.c */
extern const struct wl_backend wl_engine_backend;

#endif
