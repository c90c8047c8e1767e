/* lock: contention on the whole machine during the point.
 *
 * 1. lock:contention_begin/end tracepoints (5.19+), sampled system-wide on
 *    every CPU through perf_event_open. Counts come from the events' own
 *    counters (exact); wait time from pairing each thread's first begin with
 *    its end after sorting all records by time (a sleeping lock may begin on
 *    one CPU and end on another; a mutex emits a second begin when it stops
 *    spinning). The flags of begin classify the lock: rwsem (anon_vma's
 *    lock since 3.1), mutex, spinning.
 * 2. /proc/lock_stat when the kernel has CONFIG_LOCK_STAT: cleared at start,
 *    read at stop, &anon_vma->rwsem (or ->lock) singled out.
 */
#include "collector.h"
#include "lockstat.h"
#include "perf_ring.h"
#include "util.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_PAGES 128 /* data pages per CPU ring: 512 KiB */
#define MAX_CPUS 256
#define MAX_RECORDS (16u << 20)

/* trace_contention flags (include/trace/events/lock.h) */
#define LCB_F_SPIN (1U << 0)
#define LCB_F_READ (1U << 1)
#define LCB_F_WRITE (1U << 2)
#define LCB_F_MUTEX (1U << 5)

struct rec {
	uint64_t time;
	uint32_t tid;
	uint32_t flags; /* begin: flags; end: UINT32_MAX */
};

struct ring {
	int fd_begin, fd_end;
	struct perf_ring pr; /* over fd_begin; fd_end writes into it */
};

struct lock_priv {
	int ntp; /* rings in use; 0 when the tracepoints are unavailable */
	struct ring ring[MAX_CPUS];
	char tp_why[200];
	unsigned flags_off;
	pthread_t reader;
	int reader_started;
	volatile int stop;
	struct rec *recs;
	size_t nrecs, cap;
	uint64_t lost, dropped;
	int lockstat; /* /proc/lock_stat was cleared at start */
	char ls_why[200];
};

static int tracefs_mounted_here;

/* The tracefs event dir, mounting tracefs if nothing has. */
static int tracefs_event(const char *event, char *dir, size_t len)
{
	const char *env = getenv("RMAPBENCH_TRACEFS");
	const char *cands[] = { env, "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char buf[512], pathbuf[600];
	for (size_t i = 0; i < ARRAY_SIZE(cands); i++) {
		if (!cands[i])
			continue;
		snprintf(buf, sizeof(buf), "%s/events/%s", cands[i], event);
		const char *path = rb_sys_path(buf, pathbuf, sizeof(pathbuf));
		if (access(path, R_OK) == 0) {
			snprintf(dir, len, "%s", path);
			return 0;
		}
		if (env && i == 0)
			return -1; /* told where to look: do not look elsewhere */
	}
	if (!getenv("RMAPBENCH_SYSROOT") && mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0) {
		tracefs_mounted_here = 1; /* lock_stop takes it down again */
		snprintf(dir, len, "/sys/kernel/tracing/events/%s", event);
		return access(dir, R_OK);
	}
	return -1;
}

static int read_id(const char *dir, long *id)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/id", dir);
	char *s = rb_read_file(path, NULL);
	if (!s)
		return -1;
	*id = strtol(s, NULL, 10);
	free(s);
	return *id > 0 ? 0 : -1;
}

/* Offset of the flags field inside the raw record, from the format file. */
static unsigned flags_offset(const char *dir)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/format", dir);
	char *s = rb_read_file(path, NULL);
	unsigned off = 16;
	const char *f = s ? strstr(s, " flags;") : NULL;
	const char *o = f ? strstr(f, "offset:") : NULL;
	if (o)
		off = (unsigned)strtoul(o + 7, NULL, 10);
	free(s);
	return off;
}

static void push(struct lock_priv *p, uint64_t t, uint32_t tid, uint32_t flags)
{
	if (p->nrecs == p->cap) {
		if (p->cap >= MAX_RECORDS) {
			p->dropped++;
			return;
		}
		size_t cap = p->cap ? p->cap * 2 : 65536;
		struct rec *r = realloc(p->recs, cap * sizeof(*r));
		if (!r) {
			p->dropped++;
			return;
		}
		p->recs = r;
		p->cap = cap;
	}
	p->recs[p->nrecs++] = (struct rec){ t, tid, flags };
}

/* A record of the ring (at most 256 bytes of it: the raw part is short). */
static void record(void *arg, const unsigned char *buf, size_t n)
{
	struct lock_priv *p = arg;
	struct perf_event_header h;
	memcpy(&h, buf, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE && n >= sizeof(h) + 16) {
		/* TID: u32 pid, u32 tid; TIME: u64; RAW (begin only): u32 size, data */
		uint32_t tid;
		uint64_t t;
		memcpy(&tid, buf + sizeof(h) + 4, 4);
		memcpy(&t, buf + sizeof(h) + 8, 8);
		uint32_t flags = UINT32_MAX, rawsz = 0;
		size_t raw = sizeof(h) + 16;
		if (n >= raw + 4)
			memcpy(&rawsz, buf + raw, 4);
		if (rawsz && n >= raw + 4 + p->flags_off + 4)
			memcpy(&flags, buf + raw + 4 + p->flags_off, 4);
		push(p, t, tid, flags);
	} else if (h.type == PERF_RECORD_LOST && n >= sizeof(h) + 16) {
		uint64_t lost;
		memcpy(&lost, buf + sizeof(h) + 8, 8);
		p->lost += lost;
	}
}

static void drain(struct lock_priv *p, struct ring *r)
{
	perf_ring_drain(&r->pr, 256, record, p);
}

static void *reader_main(void *arg)
{
	struct lock_priv *p = arg;
	while (!p->stop) {
		for (int i = 0; i < p->ntp; i++)
			drain(p, &p->ring[i]);
		usleep(5000);
	}
	for (int i = 0; i < p->ntp; i++)
		drain(p, &p->ring[i]);
	return NULL;
}

static int open_tracepoints(struct lock_priv *p)
{
	char bdir[600], edir[600];
	long bid, eid;
	if (tracefs_event("lock/contention_begin", bdir, sizeof(bdir)) < 0 ||
	    tracefs_event("lock/contention_end", edir, sizeof(edir)) < 0) {
		snprintf(p->tp_why, sizeof(p->tp_why),
			 "no lock:contention_begin/end tracepoints (tracefs not mounted, or kernel older than 5.19)");
		return -1;
	}
	if (read_id(bdir, &bid) < 0 || read_id(edir, &eid) < 0) {
		snprintf(p->tp_why, sizeof(p->tp_why), "cannot read the lock tracepoint ids: %s", strerror(errno));
		return -1;
	}
	p->flags_off = flags_offset(bdir);
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	for (long cpu = 0; cpu < ncpu && cpu < MAX_CPUS; cpu++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_TRACEPOINT,
			.size = sizeof(a),
			.config = (uint64_t)bid,
			.sample_period = 1,
			.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
			.disabled = 1,
			.watermark = 1,
			.wakeup_watermark = (uint32_t)(RING_PAGES * page / 4),
		};
		struct ring *r = &p->ring[p->ntp];
		r->fd_begin = (int)perf_open(&a, -1, (int)cpu);
		if (r->fd_begin < 0) {
			if (errno == ENODEV) /* offline CPU */
				continue;
			snprintf(p->tp_why, sizeof(p->tp_why), "perf_event_open(lock:contention_begin, cpu %ld): %s",
				 cpu, strerror(errno));
			return -1;
		}
		a.config = (uint64_t)eid;
		a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		r->fd_end = (int)perf_open(&a, -1, (int)cpu);
		if (r->fd_end < 0) {
			snprintf(p->tp_why, sizeof(p->tp_why), "perf_event_open(lock:contention_end, cpu %ld): %s", cpu,
				 strerror(errno));
			close(r->fd_begin);
			return -1;
		}
		int mapped = perf_ring_map(&r->pr, r->fd_begin, RING_PAGES) == 0;
		if (!mapped || ioctl(r->fd_end, PERF_EVENT_IOC_SET_OUTPUT, r->fd_begin) < 0) {
			snprintf(p->tp_why, sizeof(p->tp_why), "perf ring for cpu %ld: %s", cpu, strerror(errno));
			if (mapped)
				perf_ring_unmap(&r->pr);
			close(r->fd_begin);
			close(r->fd_end);
			return -1;
		}
		p->ntp++;
	}
	return p->ntp ? 0 : -1;
}

static void close_tracepoints(struct lock_priv *p)
{
	for (int i = 0; i < p->ntp; i++) {
		perf_ring_unmap(&p->ring[i].pr);
		close(p->ring[i].fd_begin);
		close(p->ring[i].fd_end);
	}
	p->ntp = 0;
}

static void lock_start(struct coll_ctx *c)
{
	struct lock_priv *p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	c->priv = p;
	if (open_tracepoints(p) == 0) {
		if (pthread_create(&p->reader, NULL, reader_main, p) == 0) {
			p->reader_started = 1;
			for (int i = 0; i < p->ntp; i++) {
				ioctl(p->ring[i].fd_begin, PERF_EVENT_IOC_ENABLE, 0);
				ioctl(p->ring[i].fd_end, PERF_EVENT_IOC_ENABLE, 0);
			}
		} else {
			snprintf(p->tp_why, sizeof(p->tp_why), "cannot start the ring reader thread");
			close_tracepoints(p);
		}
	} else {
		close_tracepoints(p);
	}
	p->lockstat = lockstat_clear(p->ls_why, sizeof(p->ls_why)) == 0;
}

static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	return x->time < y->time ? -1 : x->time > y->time;
}

/* Open-addressed table of threads inside a contention: tid -> first begin. */
struct pending {
	uint32_t tid;
	uint32_t flags;
	uint64_t since;
};

enum lock_class { CLS_RWSEM, CLS_MUTEX, CLS_SPIN, NR_CLS };
static const char *const cls_name[NR_CLS] = { "rwsem", "mutex", "spin" };

static enum lock_class classify(uint32_t f)
{
	if (f & LCB_F_MUTEX)
		return CLS_MUTEX;
	if (f & LCB_F_SPIN)
		return CLS_SPIN;
	return CLS_RWSEM; /* READ or WRITE without SPIN: rwsem, percpu-rwsem */
}

static void pair_and_report(struct coll_ctx *c, struct lock_priv *p, uint64_t count)
{
	if (p->nrecs)
		qsort(p->recs, p->nrecs, sizeof(*p->recs), by_time);
	size_t cap = 1;
	while (cap < 4 * p->nrecs + 64)
		cap <<= 1;
	struct pending *tab = calloc(cap, sizeof(*tab));
	if (!tab)
		abort();
	uint64_t wait[NR_CLS] = { 0 }, n[NR_CLS] = { 0 }, unpaired = 0;
	for (size_t i = 0; i < p->nrecs; i++) {
		const struct rec *r = &p->recs[i];
		size_t h = (r->tid * 2654435761u) & (cap - 1);
		while (tab[h].tid && tab[h].tid != r->tid + 1)
			h = (h + 1) & (cap - 1);
		if (r->flags != UINT32_MAX) {
			if (tab[h].tid != r->tid + 1 || !tab[h].since) /* keep the first begin */
				tab[h] = (struct pending){ r->tid + 1, r->flags, r->time };
		} else if (tab[h].tid == r->tid + 1 && tab[h].since) {
			enum lock_class k = classify(tab[h].flags);
			wait[k] += r->time - tab[h].since;
			n[k]++;
			tab[h].since = 0;
		} else {
			unpaired++; /* began before the point started */
		}
	}
	free(tab);
	ss_add(c->out, "lock_contentions", (double)count, "contentions");
	if (p->lost || p->dropped) {
		ss_unavailable(c->out, "lock_wait_ns",
			       "perf ring lost %llu and the harness dropped %llu contention records: wait time would "
			       "be understated",
			       (unsigned long long)p->lost, (unsigned long long)p->dropped);
		return;
	}
	uint64_t total = wait[0] + wait[1] + wait[2];
	ss_add(c->out, "lock_wait_ns", (double)total, "ns");
	for (int k = 0; k < NR_CLS; k++) {
		char name[64];
		snprintf(name, sizeof(name), "lock_contentions_%s", cls_name[k]);
		ss_add(c->out, name, (double)n[k], "contentions");
		snprintf(name, sizeof(name), "lock_wait_ns_%s", cls_name[k]);
		ss_add(c->out, name, (double)wait[k], "ns");
	}
	ss_attr(c->out, "lock_unpaired_ends", "%llu", (unsigned long long)unpaired);
}

static void lock_stop(struct coll_ctx *c)
{
	struct lock_priv *p = c->priv;
	if (p->ntp) {
		uint64_t count = 0;
		for (int i = 0; i < p->ntp; i++) {
			uint64_t v = 0;
			ioctl(p->ring[i].fd_begin, PERF_EVENT_IOC_DISABLE, 0);
			ioctl(p->ring[i].fd_end, PERF_EVENT_IOC_DISABLE, 0);
			if (read(p->ring[i].fd_end, &v, sizeof(v)) == sizeof(v))
				count += v;
		}
		p->stop = 1;
		pthread_join(p->reader, NULL);
		pair_and_report(c, p, count);
		close_tracepoints(p);
	} else {
		ss_unavailable(c->out, "lock_contentions", "%s", p->tp_why);
		ss_unavailable(c->out, "lock_wait_ns", "%s", p->tp_why);
	}
	if (p->lockstat)
		lockstat_report(c->out);
	else
		ss_unavailable(c->out, "lockstat_anon_vma_contentions", "%s", p->ls_why);
	if (tracefs_mounted_here && umount2("/sys/kernel/tracing", MNT_DETACH) == 0)
		tracefs_mounted_here = 0;
	free(p->recs);
	free(p);
	c->priv = NULL;
}

const struct collector coll_lock = {
	.name = "lock",
	.summary = "lock contention (lock:contention_begin/end tracepoints) and lock_stat",
	.guest = true,
	.start = lock_start,
	.stop = lock_stop,
};
