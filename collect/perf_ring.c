/* A perf ring read record by record (perf_ring.h). */
#include "perf_ring.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

long perf_open(struct perf_event_attr *a, int pid, int cpu)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int perf_ring_map(struct perf_ring *r, int fd, size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *m = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -1;
	r->fd = fd;
	r->meta = m;
	r->pages = pages;
	r->data_size = pages * page;
	return 0;
}

void perf_ring_unmap(struct perf_ring *r)
{
	if (r->meta)
		munmap(r->meta, (r->pages + 1) * (size_t)sysconf(_SC_PAGESIZE));
	r->meta = NULL;
}

/* Copies len bytes at ring offset off, across the wrap. */
static void ring_copy(const struct perf_ring *r, uint64_t off, void *dst, size_t len)
{
	const char *data = (const char *)r->meta + r->meta->data_offset;
	size_t pos = (size_t)(off % r->data_size), first = r->data_size - pos;
	if (first > len)
		first = len;
	memcpy(dst, data + pos, first);
	memcpy((char *)dst + first, data, len - first);
}

void perf_ring_drain(struct perf_ring *r, size_t max, void (*fn)(void *arg, const unsigned char *rec, size_t len),
		     void *arg)
{
	unsigned char stackbuf[512], *buf = max > sizeof(stackbuf) ? malloc(max) : stackbuf;
	if (!buf)
		return;
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	while (tail < head) {
		struct perf_event_header h;
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		size_t n = h.size < max ? h.size : max;
		ring_copy(r, tail, buf, n);
		fn(arg, buf, n);
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	if (buf != stackbuf)
		free(buf);
}
