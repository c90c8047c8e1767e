/* Traces: one operation a line, replayed on any design.
 *
 *   # comment                      blank lines and comments are skipped
 *   mmap     P ADDR LEN PROT       PROT: r, rw, rwx, w, none; addresses in pages (> 0)
 *   write    P ADDR [LEN]          write faults (first touch, COW, swap-in)
 *   read     P ADDR [LEN]          read faults (swap-in; the zero page otherwise)
 *   swapin   P ADDR [LEN]          the same as read: named for the story
 *   fork     P CHILD               CHILD is a new process number
 *   spawn    P CHILD               CHILD gets an empty mm of its own (vfork + exec; P may be gone)
 *   exec     P                     P's mm is replaced by an empty one
 *   exit     P
 *   munmap   P ADDR LEN
 *   mprotect P ADDR LEN PROT
 *   mremap   P ADDR LEN NEWADDR
 *   zap      P ADDR [LEN]          madvise(MADV_DONTNEED): the pages go, the vmas stay
 *   reclaim  P ADDR LEN            page_referenced + try_to_unmap of the pages mapped there
 *   walk     P ADDR LEN            page_referenced only (counted walks)
 *   check                          run the invariant checker now
 *
 * Process 1 exists at the start; numbers go up to TRACE_PROC_LIMIT - 1
 * and are reused after exit. Addresses are below 2^36 pages (a 48-bit
 * address space of 4 KiB pages); one mmap or mremap moves at most
 * TRACE_MAX_MAP_PAGES; a write, read, swapin or walk line touches at
 * most TRACE_MAX_RUN_PAGES (more is an error, never cut). An operation the VM refuses (a fault on an
 * unmapped address, an overlapping mmap) is not an error of the trace: it
 * fails the same way on every design. In a strict trace (a recorded one)
 * an operation by a process that does not exist is an error; in a written
 * or fuzzed one it is refused like a bad syscall. */
#ifndef ENGINE_TRACE_H
#define ENGINE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "trace_format.h"


struct trace_ctx {
	struct engine *e;
	struct mm_struct **procs; /* procs[P]; nprocs slots: small, then the heap */
	unsigned long nprocs;
	struct mm_struct *small[256];
	bool strict;
	uint64_t ops, refused;
	unsigned long live, live_max; /* processes */
};

void trace_init(struct trace_ctx *t, struct engine *e);
/* Every live process exits (as the end of a trace); a table grown past
 * 256 processes is freed. A trace that may grow that far must end here. */
void trace_exit_all(struct trace_ctx *t);
/* 0 done (or refused by the VM), -1 a malformed line (err says why). */
int trace_exec(struct trace_ctx *t, const char *line, char *err, size_t errlen);
/* A hash of which page (or swap entry) every process maps where. */
uint64_t trace_state_hash(const struct trace_ctx *t);
/* Runs a whole text; err is "ORIGIN:LINE: msg"; returns -1 on a bad line. */
int trace_run_text(struct trace_ctx *t, const char *origin, const char *text, bool check_each, char *err,
		   size_t errlen);

#endif
