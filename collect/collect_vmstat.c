/* vmstat: /proc/vmstat deltas across the point. pgscan and pgsteal are the
 * sums kernels have split differently over time (kswapd/direct/khugepaged
 * since 2.6, anon/file also since 5.x: use one split, never both). */
#include "collector.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vm_metric {
	const char *metric, *unit;
	const char *keys[4]; /* summed; all must be present */
};

static const struct vm_metric vm_metrics[] = {
	{ "vm_pgfault", "faults", { "pgfault" } },
	{ "vm_pgmajfault", "faults", { "pgmajfault" } },
	{ "vm_pgscan", "pages", { "pgscan_kswapd", "pgscan_direct" } },
	{ "vm_pgsteal", "pages", { "pgsteal_kswapd", "pgsteal_direct" } },
	{ "vm_pswpin", "pages", { "pswpin" } },
	{ "vm_pswpout", "pages", { "pswpout" } },
	{ "vm_pgactivate", "pages", { "pgactivate" } },
	{ "vm_pgdeactivate", "pages", { "pgdeactivate" } },
	{ "vm_oom_kill", "kills", { "oom_kill" } },
	{ "vm_pgrefill", "pages", { "pgrefill" } },
};

struct vm_priv {
	char *before;
};

static char *vmstat_read(void)
{
	char buf[256];
	return rb_read_file(rb_sys_path("/proc/vmstat", buf, sizeof(buf)), NULL);
}


static int vmstat_value(const char *text, const char *key, unsigned long long *v)
{
	size_t klen = strlen(key);
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (!strncmp(line, key, klen) && line[klen] == ' ')
			return sscanf(line + klen + 1, "%llu", v) == 1 ? 0 : -1;
	}
	return -1;
}

static void vm_start(struct coll_ctx *c)
{
	struct vm_priv *p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	p->before = vmstat_read();
	c->priv = p;
}

static void vm_stop(struct coll_ctx *c)
{
	struct vm_priv *p = c->priv;
	char *after = vmstat_read();
	for (size_t i = 0; i < ARRAY_SIZE(vm_metrics); i++) {
		const struct vm_metric *m = &vm_metrics[i];
		if (!p->before || !after) {
			ss_unavailable(c->out, m->metric, "/proc/vmstat is not readable");
			continue;
		}
		unsigned long long sum = 0;
		const char *missing = NULL;
		for (int k = 0; k < 4 && m->keys[k]; k++) {
			unsigned long long a, b;
			if (vmstat_value(p->before, m->keys[k], &a) < 0 || vmstat_value(after, m->keys[k], &b) < 0) {
				missing = m->keys[k];
				break;
			}
			sum += b >= a ? b - a : 0;
		}
		if (missing)
			ss_unavailable(c->out, m->metric, "this kernel's /proc/vmstat has no %s", missing);
		else
			ss_add(c->out, m->metric, (double)sum, m->unit);
	}
	free(after);
	free(p->before);
	free(p);
	c->priv = NULL;
}

const struct collector coll_vmstat = {
	.name = "vmstat",
	.summary = "/proc/vmstat deltas: swap, scan, steal, faults",
	.guest = true,
	.start = vm_start,
	.stop = vm_stop,
};
