/* The machine model's keys: one table, read by rmapbench-sim and by the
 * harness's config check. Costs are per 4 KiB page where a page is
 * involved (the simulator scales them by sim_page_kib / 4). */
#include "sim.h"
#include "workload.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sdesc {
	const char *key;
	size_t off;
	double min, max;
	int integer;
} sdescs[] = {
#define SD(k, f, lo, hi, i) { "sim_" #k, offsetof(struct sim_params, f), lo, hi, i }
	SD(cpus, cpus, 1, 4096, 1),               /* virtual CPUs the users run on */
	SD(ram_mib, ram_mib, 1, 1 << 24, 0),      /* memory for anon pages and processes */
	SD(dma32_mib, dma32_mib, 0, 4096, 0),     /* RAM below 4 GiB (ZONE_DMA32), the rest ZONE_NORMAL; 0: one zone */
	SD(page_kib, page_kib, 4, 1 << 20, 0),    /* an engine page stands for this much */
	SD(proc_kib, proc_kib, 0, 1 << 20, 0),    /* a process's kernel memory: stack, page tables */
	SD(swap_mbps, swap_mbps, 0.001, 1e6, 0),  /* the swap device's bandwidth */
	SD(swap_latency_ms, swap_latency_ms, 0, 1e4, 0), /* a read's seek: the device is busy meanwhile */
	SD(congestion_ms, congestion_ms, 0, 1e5, 0), /* write backlog at which reclaim waits */
	SD(min_free_kib, min_free_kib, 0, 1 << 30, 0), /* 0: the kernel's sqrt(16 x RAM) */
	SD(vma_ns, vma_ns, 0, 1e9, 0),            /* one VMA visited by an rmap walk */
	SD(walk_ns, walk_ns, 0, 1e9, 0),          /* a walk's own part: lock, anon_vma lookup */
	SD(scan_ns, scan_ns, 0, 1e9, 0),          /* an LRU page isolated and looked at */
	SD(fault_ns, fault_ns, 0, 1e9, 0),        /* an anonymous or COW fault, the copy included */
	SD(fork_ns, fork_ns, 0, 1e12, 0),         /* fork and exec-less child setup */
	SD(fork_vma_ns, fork_vma_ns, 0, 1e12, 0), /* a VMA copied by fork (page tables included) */
	SD(exit_ns, exit_ns, 0, 1e12, 0),         /* exit and reap */
	SD(lock_ns, lock_ns, 0, 1e9, 0),          /* a link/unlink under an anon_vma lock */
	SD(compute_ns, compute_ns, 0, 1e9, 0),    /* one iteration of a compute job (user time) */
	SD(swapin_ns, swapin_ns, 0, 1e9, 0),      /* CPU of a swap-in fault; the read is the device's */
	SD(pageout_ns, pageout_ns, 0, 1e9, 0),    /* CPU of starting a swap-out */
	SD(copy_ns, copy_ns, 0, 1e9, 0),          /* a 4 KiB read() copy out of the page cache */
	SD(max_virtual_s, max_virtual_s, 1, 1e9, 0), /* a point still running then fails */
	SD(cache_mbps, cache_mbps, 0, 1e6, 0),    /* file IO filling the page cache, MB/s */
	SD(swappiness, swappiness, 0, 100, 0),    /* vm.swappiness: the anon share of the scan */
	SD(slice_ms, slice_ms, 0, 1e4, 0),        /* CFS's slice under load; 0: 2.6.33's, 1 ms x (1 + log2 CPUs) */
	SD(census, census, 0, 2, 1),              /* 1: walk every page once, as engine walkcost does; 2: at the peak */
	SD(walk_scale, walk_scale, 0, 1e3, 0),    /* the VMAs' part of each walk's cost, times this */
	SD(profile, profile, 0, 1, 1),            /* 1: where every virtual ns went (sim/profile.c) */
#undef SD
};

void sim_params_default(struct sim_params *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->variant, sizeof(p->variant), "avc");
	p->cpus = 2;
	p->ram_mib = 1024;
	p->dma32_mib = 3072; /* below a 1 GiB PCI hole under 4 GiB */
	p->page_kib = 4;
	p->proc_kib = 48;
	p->swap_mbps = 100;
	p->swap_latency_ms = 5;
	p->congestion_ms = 100;
	p->vma_ns = 60;
	p->walk_ns = 300;
	p->scan_ns = 100;
	p->fault_ns = 1000;
	p->fork_ns = 50000;
	p->fork_vma_ns = 1000;
	p->exit_ns = 30000;
	p->lock_ns = 200;
	p->compute_ns = 1;
	p->swapin_ns = 5000;
	p->pageout_ns = 5000;
	p->copy_ns = 500;
	p->max_virtual_s = 36000;
	p->swappiness = 60;
	p->walk_scale = 1;
}

static const struct sdesc *find(const char *key)
{
	for (size_t i = 0; i < sizeof(sdescs) / sizeof(sdescs[0]); i++)
		if (!strcmp(sdescs[i].key, key))
			return &sdescs[i];
	return NULL;
}

int sim_param_known(const char *key)
{
	return find(key) != NULL || !strcmp(key, "sim_walk_curve");
}

int sim_params_set(struct sim_params *p, const char *key, const char *val, char *err, size_t errlen)
{
	if (!strcmp(key, "sim_walk_curve")) /* a walk's measured cost against its VMAs (walkcurve.h) */
		return walk_curve_parse(val, &p->walk_curve, err, errlen);
	const struct sdesc *d = find(key);
	if (!d) {
		snprintf(err, errlen, "unknown parameter '%s'", key);
		return -1;
	}
	double v;
	if (wl_parse_number(key, val, d->min, d->max, d->integer, &v, err, errlen) < 0)
		return -1;
	if (d->integer)
		*(long *)(void *)((char *)p + d->off) = (long)v;
	else
		*(double *)(void *)((char *)p + d->off) = v;
	return 0;
}
