/* rmap: reverse-map walks and the VMAs they visit, counted by kprobes on
 * the walk and on the per-VMA callbacks of this kernel (names since 5.18:
 * folio_referenced_one, try_to_unmap_one; page_referenced_one before).
 * On a kernel that does not let us place kprobes (no kprobe PMU, or
 * perf_event_open refuses) every metric is unavailable, with the reason. */
#include "collector.h"
#include "util.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_CPUS 256

static const char *const walk_funcs[] = { "rmap_walk_anon", "rmap_walk_file" };
static const char *const visit_funcs[] = { "folio_referenced_one", "try_to_unmap_one", "page_referenced_one" };
#define NFUNCS 5

struct rmap_priv {
	int ncpu;
	int fd[NFUNCS][MAX_CPUS];
	int have[NFUNCS];
	char why[240];
};

static const char *func_name(int i)
{
	return i < 2 ? walk_funcs[i] : visit_funcs[i - 2];
}

static void rmap_start(struct coll_ctx *c)
{
	struct rmap_priv *p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	c->priv = p;
	char buf[256];
	char *t = rb_read_file(rb_sys_path("/sys/bus/event_source/devices/kprobe/type", buf, sizeof(buf)), NULL);
	if (!t) {
		snprintf(p->why, sizeof(p->why),
			 "no kprobe PMU in /sys/bus/event_source/devices: kprobes are not permitted on this kernel");
		return;
	}
	uint32_t type = (uint32_t)strtoul(t, NULL, 10);
	free(t);
	p->ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (p->ncpu > MAX_CPUS)
		p->ncpu = MAX_CPUS;
	int first_err = 0;
	for (int f = 0; f < NFUNCS; f++) {
		for (int cpu = 0; cpu < p->ncpu; cpu++) {
			struct perf_event_attr a = { .type = type, .size = sizeof(a) };
			a.config1 = (uint64_t)(uintptr_t)func_name(f); /* kprobe_func */
			long fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
			p->fd[f][cpu] = (int)fd;
			if (fd < 0 && errno != ENODEV && !first_err)
				first_err = errno;
			if (fd >= 0)
				p->have[f] = 1;
		}
	}
	if (!p->have[0])
		snprintf(p->why, sizeof(p->why), "kprobe on rmap_walk_anon refused: %s", strerror(first_err));
}

static uint64_t sum(struct rmap_priv *p, int f)
{
	uint64_t total = 0;
	for (int cpu = 0; cpu < p->ncpu; cpu++) {
		uint64_t v;
		if (p->fd[f][cpu] >= 0 && read(p->fd[f][cpu], &v, sizeof(v)) == sizeof(v))
			total += v;
	}
	return total;
}

static void rmap_stop(struct coll_ctx *c)
{
	struct rmap_priv *p = c->priv;
	if (!p->have[0]) {
		ss_unavailable(c->out, "rmap_walks", "%s", p->why);
		ss_unavailable(c->out, "rmap_vmas_visited", "%s", p->why);
		ss_unavailable(c->out, "rmap_vmas_per_walk", "%s", p->why);
	} else {
		uint64_t anon = sum(p, 0), file = p->have[1] ? sum(p, 1) : 0, visited = 0;
		for (int f = 2; f < NFUNCS; f++)
			if (p->have[f])
				visited += sum(p, f);
		ss_add(c->out, "rmap_walks", (double)anon, "walks");
		if (p->have[1])
			ss_add(c->out, "rmap_walks_file", (double)file, "walks");
		ss_add(c->out, "rmap_vmas_visited", (double)visited, "vmas");
		if (anon + file)
			ss_add(c->out, "rmap_vmas_per_walk", (double)visited / (double)(anon + file), "vmas/walk");
		else
			ss_unavailable(c->out, "rmap_vmas_per_walk", "no rmap walk happened during the point");
	}
	for (int f = 0; f < NFUNCS; f++)
		for (int cpu = 0; cpu < p->ncpu; cpu++)
			if (p->fd[f][cpu] >= 0)
				close(p->fd[f][cpu]);
	free(p);
	c->priv = NULL;
}

const struct collector coll_rmap = {
	.name = "rmap",
	.summary = "rmap walks and VMAs visited, by kprobes (the guest agent places its own)",
	.start = rmap_start,
	.stop = rmap_stop,
};

