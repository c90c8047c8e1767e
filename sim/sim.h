/* The engine target: a workload's users played on the userspace rmap
 * engine in virtual time, on a modelled machine.
 *
 * Nothing here computes a walk's length: every rmap walk (reclaim's
 * page_referenced and try_to_unmap) runs on the engine, and its cost is
 * what a walk over that many VMAs cost a real kernel (sim_walk_curve,
 * measured by calibrate-walk; or sim_vma_ns for each). What the model
 * adds is time: CPUs the users queue for, the anon_vma lock a walker holds while others spin (2.6.33
 * and 2.6.34's spinlock; 6.1's rwsem readers share it and waiters sleep),
 * and a swap device that pages wait on.
 *
 *   rmapbench-sim WORKLOAD [variant=NAME] [sim_KEY=VALUE ...] [key=value ...]
 *
 * prints the workload protocol (workload.h): the same metric names a host
 * or vm point has, in virtual time. */
#ifndef RMAPBENCH_SIM_H
#define RMAPBENCH_SIM_H

#include "walkcurve.h"

#include <stddef.h>

/* The machine and its costs; each key is documented in params.c. */
struct sim_params {
	char variant[16];
	long cpus;
	double ram_mib;
	double dma32_mib;       /* RAM below 4 GiB: ZONE_DMA32, the rest ZONE_NORMAL; 0: one zone */
	double page_kib;        /* one engine page stands for this much memory */
	double proc_kib;        /* kernel memory per process */
	double swap_mbps, swap_latency_ms, congestion_ms;
	double min_free_kib;    /* 0: the kernel's formula; low and high follow */
	double vma_ns, walk_ns, scan_ns, fault_ns, fork_ns, fork_vma_ns, exit_ns, lock_ns, compute_ns;
	double swapin_ns, pageout_ns, copy_ns;
	double cache_mbps;      /* page cache the box's file IO brings in */
	double swappiness;      /* the anon share of reclaim's scan while there is cache */
	double slice_ms;        /* 0: sched_min_granularity scaled by the CPUs, as 2.6.33 */
	double max_virtual_s;   /* a point that has not finished by then fails */
	long census;            /* 1: page_referenced of every page once every user has done a job;
				 * 2: at the most pages mapped (within 2%), as `rmapbench replay` counts */
	struct walk_curve walk_curve; /* measured walk costs; when set, sim_vma_ns is not used */
	double walk_scale;      /* the VMAs' part of a walk's cost, times this (sensitivity) */
	long profile;           /* 1: where every virtual ns went, as folded stacks (sim/profile.c) */
};

void sim_params_default(struct sim_params *p);
/* 0, or -1 with "unknown parameter 'KEY'" or the reason in err. */
int sim_params_set(struct sim_params *p, const char *key, const char *val, char *err, size_t errlen);
/* Is KEY one of the machine's (the harness keeps them from other targets)? */
int sim_param_known(const char *key);

#endif
