/* A trace file (engine/trace.h's lines, gzip or text) read once into
 * memory, bounded: the one reader of both replays (`replay`, every design
 * then replaying the same operations from memory, and `engine replay`,
 * one design checked after every line). The file is hostile input:
 *
 *   - at most TRACE_FILE_MAX_BYTES decompressed and TRACE_FILE_MAX_LINES
 *     lines, a line at most 510 bytes, no NUL byte;
 *   - its header (the leading '#' lines) checked: "# rmapbench-trace N"
 *     (1 or 2; none: a hand-written format 1), "# page_size: N" (this
 *     machine's);
 *   - with TRACE_FILE_WHOLE (replay's), whatever its format, its last
 *     line that is not blank is "# end"
 *     (a recorder's "# end: ..." counts; write it at the end of a trace
 *     by hand), so that a cut trace is never taken for a whole one, and
 *     no operation comes after it;
 *   - at least one operation.
 * Every error is "FILE:LINE: why" or "FILE: why". */
#ifndef HARNESS_RUN_TRACE_FILE_H
#define HARNESS_RUN_TRACE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "trace_format.h"

#define TRACE_FILE_MAX_BYTES (256UL << 20)
#define TRACE_FILE_MAX_LINES (1UL << 24)

struct trace_file {
	char *text;             /* the operation lines, each ending in NUL */
	size_t len, cap;
	uint32_t *at, *lineno;  /* each operation line's offset in text, and its number */
	size_t n, ncap;
	size_t next;            /* trace_file_next's position */
	int format;             /* 1: written by hand (or no header), 2: recorded */
	char command[400];      /* the header's "# command:", when it has one */
};

/* A trace must end with "# end": a cut one is not taken for a whole one.
 * Without it (engine replay's checked scripts, such as engine/findings)
 * the operations up to the end of the file are the trace. */
#define TRACE_FILE_WHOLE 1

int trace_file_load(struct trace_file *f, const char *path, int flags, char *err, size_t errlen);
/* replay_next_fn over the operations, from the first after rewind. */
const char *trace_file_next(void *f, unsigned long *lineno);
void trace_file_rewind(struct trace_file *f);
void trace_file_free(struct trace_file *f);

#endif
