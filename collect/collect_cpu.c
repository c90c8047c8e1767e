/* cpu: the workload tree's own times from wait4()'s rusage, and the whole
 * machine's split from /proc/stat (system time spent for the workload shows
 * up in other tasks too: kswapd, kworkers). */
#include "collector.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { USER, NICE, SYSTEM, IDLE, IOWAIT, IRQ, SOFTIRQ, STEAL, NR_CPU_FIELDS };

struct cpu_priv {
	int ok;
	unsigned long long t[NR_CPU_FIELDS];
};


static int proc_stat_read(unsigned long long t[NR_CPU_FIELDS])
{
	char buf[256];
	char *s = rb_read_file(rb_sys_path("/proc/stat", buf, sizeof(buf)), NULL);
	if (!s)
		return -1;
	memset(t, 0, sizeof(unsigned long long) * NR_CPU_FIELDS);
	int n = sscanf(s, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &t[0], &t[1], &t[2], &t[3], &t[4], &t[5],
		       &t[6], &t[7]);
	free(s);
	return n >= 5 ? 0 : -1;
}

static void cpu_start(struct coll_ctx *c)
{
	struct cpu_priv *p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	p->ok = proc_stat_read(p->t) == 0;
	c->priv = p;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static void cpu_stop(struct coll_ctx *c)
{
	struct cpu_priv *p = c->priv;
	unsigned long long now[NR_CPU_FIELDS];
	ss_add(c->out, "wall_s", c->wall_s, "s");
	ss_add(c->out, "sys_s", tv(c->ru.ru_stime), "s");
	ss_add(c->out, "user_s", tv(c->ru.ru_utime), "s");
	ss_add(c->out, "max_rss_kib", (double)c->ru.ru_maxrss, "KiB");
	ss_add(c->out, "minor_faults", (double)c->ru.ru_minflt, "faults");
	ss_add(c->out, "major_faults", (double)c->ru.ru_majflt, "faults");
	ss_add(c->out, "vol_ctx_switches", (double)c->ru.ru_nvcsw, "switches");
	ss_add(c->out, "invol_ctx_switches", (double)c->ru.ru_nivcsw, "switches");

	static const char *const pct[] = { "sys_pct", "user_pct", "iowait_pct", "idle_pct", "steal_pct" };
	unsigned long long d[NR_CPU_FIELDS], total = 0;
	if (!p->ok || proc_stat_read(now) < 0) {
		for (size_t i = 0; i < ARRAY_SIZE(pct); i++)
			ss_unavailable(c->out, pct[i], "/proc/stat has no readable cpu line");
		goto out;
	}
	for (int i = 0; i < NR_CPU_FIELDS; i++) {
		d[i] = now[i] >= p->t[i] ? now[i] - p->t[i] : 0;
		total += d[i];
	}
	if (!total) {
		for (size_t i = 0; i < ARRAY_SIZE(pct); i++)
			ss_unavailable(c->out, pct[i], "the point ended within one clock tick of /proc/stat");
		goto out;
	}
	ss_add(c->out, "sys_pct", 100.0 * (double)(d[SYSTEM] + d[IRQ] + d[SOFTIRQ]) / (double)total, "%");
	ss_add(c->out, "user_pct", 100.0 * (double)(d[USER] + d[NICE]) / (double)total, "%");
	ss_add(c->out, "iowait_pct", 100.0 * (double)d[IOWAIT] / (double)total, "%");
	ss_add(c->out, "idle_pct", 100.0 * (double)d[IDLE] / (double)total, "%");
	ss_add(c->out, "steal_pct", 100.0 * (double)d[STEAL] / (double)total, "%");
out:
	free(p);
	c->priv = NULL;
}

const struct collector coll_cpu = {
	.name = "cpu",
	.summary = "system, user, iowait and idle time; jobs/min from the workload",
	.guest = true,
	.start = cpu_start,
	.stop = cpu_stop,
};
