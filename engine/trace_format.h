/* The trace file's format: its one home. The recorder (record/) writes
 * it, `replay` (harness/run/trace_file.c) and the engine (trace.c) read
 * it; engine/trace.h documents the operations' lines. Header lines are
 * '#' comments of the form "# key: value", the first saying the format;
 * the last line of every trace is "# end" (a recorder's "# end: ..."
 * with its counts). */
#ifndef ENGINE_TRACE_FORMAT_H
#define ENGINE_TRACE_FORMAT_H

/* 2: process numbers up to TRACE_PROC_LIMIT, spawn, exec, zap, the header */
#define TRACE_FORMAT_VERSION 2

/* the header's keys, as written */
#define TRACE_KEY_FORMAT "# rmapbench-trace"
#define TRACE_KEY_COMMAND "# command: "
#define TRACE_KEY_PAGE_SIZE "# page_size: "
#define TRACE_KEY_END "# end"

/* A line, its newline aside: longer is an error, never cut. */
#define TRACE_LINE_MAX 510

/* Processes are 1 .. TRACE_PROC_LIMIT - 1; addresses are pages below
 * TRACE_ADDR_LIMIT (a 48-bit address space of 4 KiB pages); one mmap or
 * mremap moves at most TRACE_MAX_MAP_PAGES; a write, read, swapin or walk
 * line touches at most TRACE_MAX_RUN_PAGES. */
#define TRACE_PROC_LIMIT (1UL << 22)
#define TRACE_ADDR_LIMIT (1UL << 36)
#define TRACE_MAX_MAP_PAGES (1UL << 26) /* 256 GiB of 4 KiB pages */
#define TRACE_MAX_RUN_PAGES 4096UL

#endif
