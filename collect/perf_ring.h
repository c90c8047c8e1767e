/* A perf_event_open ring buffer read record by record: mapped over an
 * event's fd, each record copied out whole (across the wrap) to a
 * callback, the tail moved on. The lock and profile collectors' one
 * reader. A record whose header is shorter than itself ends the drain
 * (the ring is the kernel's, but a record is parsed by its callback
 * within the bytes it was given). */
#ifndef RMAPBENCH_PERF_RING_H
#define RMAPBENCH_PERF_RING_H

#include <linux/perf_event.h>
#include <stddef.h>

struct perf_ring {
	int fd;
	struct perf_event_mmap_page *meta;
	size_t data_size, pages;
};

/* Maps pages data pages (a power of two) over fd: 0, or -1 (errno). */
int perf_ring_map(struct perf_ring *r, int fd, size_t pages);
void perf_ring_unmap(struct perf_ring *r);
/* fn(arg, record, its length) for each record, at most max bytes of one
 * (the rest of a longer record is skipped). */
void perf_ring_drain(struct perf_ring *r, size_t max, void (*fn)(void *arg, const unsigned char *rec, size_t len),
		     void *arg);
long perf_open(struct perf_event_attr *a, int pid, int cpu);

#endif
