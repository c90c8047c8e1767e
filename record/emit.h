/* The trace as it is written: engine/trace.h's text, gzip-compressed
 * unless asked for text; runs of pages of one operation coalesced into
 * one line (at most 4096 pages, the engine's line limit). */
#ifndef RECORD_EMIT_H
#define RECORD_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct emit {
	void *gz;          /* gzFile */
	int fd;            /* text output */
	char buf[1 << 16];
	size_t len;
	const char *run_op; /* the open run: op, proc, first page, pages */
	unsigned long run_proc;
	uint64_t run_start, run_n;
	uint64_t lines;
	bool failed;
};

/* dirfd/name: created new (O_EXCL), never through a link. */
int emit_open(struct emit *o, int dirfd, const char *name, int text, char *err, size_t errlen);
void emit_line(struct emit *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One page of op ("write", "read", "zap") by proc: joined to the open run
 * when it continues it. */
void emit_page(struct emit *o, const char *op, unsigned long proc, uint64_t page);
int emit_close(struct emit *o);

#endif
