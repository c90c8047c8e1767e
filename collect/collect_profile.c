/* profile: where the kernel's time went, in the middle half of a point.
 *
 *   profile_start   a sampling event on every CPU (cycles with a PMU, else
 *                   cpu-clock, a timer: guests under TCG and this host have
 *                   no PMU), kernel callchains, a reader thread draining
 *                   the rings into a buffer
 *   profile_stop    the samples of the window [25%, 75%] of the point's
 *                   time folded by kallsyms' names; idle CPUs counted
 *                   apart; rows and stacks (profile.h)
 *
 * Opt-in (profile = 1 sets profile_hz): off, it does nothing at all. The
 * guest agent runs the same code (plan line "profile HZ"): one sampler,
 * one window, one cut for both targets. Why not Debian's perf: a second
 * program in every initramfs with its libraries, for samples this file
 * reads in a hundred lines; docs/metrics.md, "Profiles". */
#include "collector.h"
#include "perf_ring.h"
#include "profile.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define RING_PAGES 64
#define MAX_CPUS 256
#define MAX_BYTES (64u << 20) /* of kept samples; past it they are counted as lost */
#define WINDOW_FROM 0.25
#define WINDOW_TO 0.75

struct prof_priv {
	struct perf_ring ring[MAX_CPUS];
	int nring;
	const char *event;
	char why[240];
	pthread_t reader;
	volatile int stop;
	struct prof_sample *s;
	size_t n, cap;
	uint64_t lost, cut;
	uint64_t t0;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void keep(void *arg, const unsigned char *rec, size_t len)
{
	struct prof_priv *p = arg;
	struct prof_sample s;
	int r = profile_parse_record(rec, len, &s);
	if (r < 0)
		p->cut++;
	if (r <= 0)
		return;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		struct prof_sample *v = cap * sizeof(*v) <= MAX_BYTES ? realloc(p->s, cap * sizeof(*v)) : NULL;
		if (!v) {
			p->lost++;
			return;
		}
		p->s = v;
		p->cap = cap;
	}
	p->s[p->n++] = s;
}

static void drain_all(struct prof_priv *p)
{
	for (int i = 0; i < p->nring; i++)
		perf_ring_drain(&p->ring[i], 16 + 24 + 8 * (PROFILE_MAX_CHAIN + 8), keep, p);
}

static void *reader_main(void *arg)
{
	struct prof_priv *p = arg;
	while (!p->stop) {
		drain_all(p);
		usleep(10000);
	}
	drain_all(p);
	return NULL;
}

static int open_cpu(struct prof_priv *p, long cpu, int hz)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_freq = (uint64_t)hz,
		.freq = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN,
		.disabled = 1,
		.exclude_callchain_user = 1,
		.exclude_hv = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.wakeup_events = 64,
	};
	long fd = perf_open(&a, -1, (int)cpu);
	if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV || errno == EINVAL)) {
		a.type = PERF_TYPE_SOFTWARE; /* no PMU: a timer samples as well */
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		fd = perf_open(&a, -1, (int)cpu);
	}
	if (fd < 0)
		return errno == ENODEV ? 0 : -1; /* an offline CPU */
	p->event = a.type == PERF_TYPE_HARDWARE ? "cycles" : "cpu-clock";
	if (perf_ring_map(&p->ring[p->nring], (int)fd, RING_PAGES) < 0) {
		close((int)fd);
		return -1;
	}
	p->nring++;
	return 0;
}

static void close_rings(struct prof_priv *p)
{
	for (int i = 0; i < p->nring; i++) {
		perf_ring_unmap(&p->ring[i]);
		close(p->ring[i].fd);
	}
	p->nring = 0;
}

static void profile_start(struct coll_ctx *c)
{
	c->priv = NULL;
	if (c->profile_hz <= 0)
		return;
	struct prof_priv *p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	c->priv = p;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	for (long cpu = 0; cpu < ncpu && cpu < MAX_CPUS; cpu++)
		if (open_cpu(p, cpu, c->profile_hz) < 0) {
			snprintf(p->why, sizeof(p->why), "perf_event_open(cpu-clock sampling, cpu %ld): %s", cpu,
				 strerror(errno));
			close_rings(p);
			return;
		}
	if (!p->nring || pthread_create(&p->reader, NULL, reader_main, p) != 0) {
		snprintf(p->why, sizeof(p->why), "%s", p->nring ? "cannot start the ring reader" : "no CPU to sample");
		close_rings(p);
		return;
	}
	p->t0 = mono_ns();
	for (int i = 0; i < p->nring; i++)
		ioctl(p->ring[i].fd, PERF_EVENT_IOC_ENABLE, 0);
}

/* The window's busy samples folded; idle ones counted. */
static void fold_window(struct coll_ctx *c, struct prof_priv *p, uint64_t t1, const struct ksyms *k)
{
	uint64_t span = t1 - p->t0, from = p->t0 + (uint64_t)(WINDOW_FROM * span),
		 to = p->t0 + (uint64_t)(WINDOW_TO * span), idle = 0;
	struct folded f = { 0 };
	for (size_t i = 0; i < p->n; i++) {
		if (p->s[i].time < from || p->s[i].time >= to)
			continue;
		if (p->s[i].pid == 0)
			idle++;
		else
			profile_fold(&f, k, &p->s[i]);
	}
	if (f.total > 0) {
		profile_rows(c->out, &f);
		ss_attr(c->out, "profile_idle_pct", "%.1f", 100.0 * (double)idle / ((double)idle + f.total));
	} else {
		ss_unavailable(c->out, "profile_samples", "no busy sample in the window (%.0f ms, %llu idle)",
			       (double)(to - from) / 1e6, (unsigned long long)idle);
	}
	folded_free(&f);
}

static void profile_stop(struct coll_ctx *c)
{
	struct prof_priv *p = c->priv;
	if (!p)
		return;
	c->priv = NULL;
	if (!p->nring) {
		ss_unavailable(c->out, "profile_samples", "%s", p->why);
		free(p);
		return;
	}
	uint64_t t1 = mono_ns();
	for (int i = 0; i < p->nring; i++)
		ioctl(p->ring[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	p->stop = 1;
	pthread_join(p->reader, NULL);
	close_rings(p);
	struct ksyms k;
	char why[240];
	if (ksyms_load(&k, "/proc/kallsyms", why, sizeof(why)) < 0) {
		ss_unavailable(c->out, "profile_samples", "%s", why);
	} else {
		fold_window(c, p, t1, &k);
		ksyms_free(&k);
	}
	ss_attr(c->out, "profile_event", "%s at %d Hz, window %.0f%%-%.0f%% of the point", p->event, c->profile_hz,
		100 * WINDOW_FROM, 100 * WINDOW_TO);
	if (p->lost || p->cut)
		ss_attr(c->out, "profile_lost", "%llu samples past the buffer, %llu records cut",
			(unsigned long long)p->lost, (unsigned long long)p->cut);
	free(p->s);
	free(p);
}

const struct collector coll_profile = {
	.name = "profile",
	.summary = "where the kernel's time went: sampled kernel stacks (opt-in: profile = 1)",
	.guest = true,
	.start = profile_start,
	.stop = profile_stop,
};
