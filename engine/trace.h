/* Traces: one operation a line, replayed on any design.
 *
 *   # comment                      blank lines and comments are skipped
 *   mmap     P ADDR LEN PROT       PROT: r, rw, rwx, w, none; addresses in pages (> 0)
 *   write    P ADDR [LEN]          write faults (first touch, COW, swap-in)
 *   read     P ADDR [LEN]          read faults (swap-in; the zero page otherwise)
 *   swapin   P ADDR [LEN]          the same as read: named for the story
 *   fork     P CHILD               CHILD is a new process number (1..255)
 *   exit     P
 *   munmap   P ADDR LEN
 *   mprotect P ADDR LEN PROT
 *   mremap   P ADDR LEN NEWADDR
 *   reclaim  P ADDR LEN            page_referenced + try_to_unmap of the pages mapped there
 *   walk     P ADDR LEN            page_referenced only (counted walks)
 *   check                          run the invariant checker now
 *
 * Process 1 exists at the start. An operation the VM refuses (a fault on
 * an unmapped address, an overlapping mmap) is not an error of the trace:
 * it fails the same way on every design. */
#ifndef ENGINE_TRACE_H
#define ENGINE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define TRACE_MAX_PROCS 256

struct trace_ctx {
	struct engine *e;
	struct mm_struct *procs[TRACE_MAX_PROCS];
	uint64_t ops, refused;
};

void trace_init(struct trace_ctx *t, struct engine *e);
/* 0 done (or refused by the VM), -1 a malformed line (err says why). */
int trace_exec(struct trace_ctx *t, const char *line, char *err, size_t errlen);
/* A hash of which page (or swap entry) every process maps where. */
uint64_t trace_state_hash(const struct trace_ctx *t);
/* Runs a whole text; err is "ORIGIN:LINE: msg"; returns -1 on a bad line. */
int trace_run_text(struct trace_ctx *t, const char *origin, const char *text, bool check_each, char *err,
		   size_t errlen);

#endif
