/* Kernel errors in a kernel log, as results: every report the kernel
 * printed (BUG, Oops, general protection fault, KASAN, UBSAN, WARNING,
 * lockdep, an RCU stall, a soft or hard lockup, a hung task, "Bad page
 * state", "Bad rss-counter state", list corruption, a panic), cut out of
 * the log and given a signature in syzbot's manner: the kind and the
 * first function of the kernel's own, such as "WARNING in anon_vma_clone"
 * or "KASAN: use-after-free Read in folio_lock_anon_vma_read", with no
 * address, pid, time or offset in it, so that one bug has one signature
 * on every run and machine.
 *
 * The log is hostile input (a guest's, or what userspace wrote to
 * /dev/kmsg): it is fed in chunks of any size, a line is cut at
 * KLOG_LINE_MAX, a report at KLOG_REPORT_LINES lines and its kept text
 * at KLOG_TEXT_MAX bytes; at most KLOG_MAX_SIGS signatures are kept, the
 * reports of any further one only counted. Memory is the struct's alone. */
#ifndef RMAPBENCH_KLOG_H
#define RMAPBENCH_KLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"

#define KLOG_LINE_MAX 512
#define KLOG_REPORT_LINES 96
#define KLOG_TEXT_MAX 4096
#define KLOG_SIG_MAX 160
#define KLOG_MAX_SIGS 16

struct klog_sig {
	char title[KLOG_SIG_MAX];  /* the signature */
	const char *kind;          /* "BUG", "WARNING", "KASAN", ...: klog_kinds' name */
	unsigned long count;       /* reports of it */
	char first[KLOG_TEXT_MAX]; /* the first report's lines, as logged */
};

/* The kinds recognised, with an example of a signature each (docs). */
struct klog_kind {
	const char *name, *example;
};
extern const struct klog_kind klog_kinds[];

struct klog {
	struct klog_sig sigs[KLOG_MAX_SIGS];
	int nsigs;
	unsigned long reports;  /* every report seen */
	unsigned long unkept;   /* reports of signatures past KLOG_MAX_SIGS */
	unsigned long lines;    /* lines read */
	/* the line being assembled, and the report being cut out */
	char line[KLOG_LINE_MAX + 1];
	size_t linelen;
	bool line_cut;
	struct klog_cur {
		int kind;                 /* index into the recognisers; -1 none */
		int nlines;
		char head[KLOG_LINE_MAX + 1];  /* its first line */
		char access[16];          /* KASAN: Read or Write */
		char rip[KLOG_SIG_MAX];   /* the function of "RIP:" */
		char trace[KLOG_SIG_MAX]; /* the first function of its call trace not the report's own */
		char text[KLOG_TEXT_MAX];
		size_t textlen;
	} cur;
};

void klog_init(struct klog *k);
/* len bytes more of the log; lines may be split anywhere. */
void klog_feed(struct klog *k, const char *buf, size_t len);
/* The log's end: a last line without its newline, the report open. */
void klog_end(struct klog *k);
/* As a point's results:
 *   kernel_error_reports   reports of every kind (0 on a clean point)
 *   kernel_error_N         attribute "COUNT SIGNATURE", N from 1
 *   kernel_error_N_first   the first report's opening line
 *   kernel_error_N_text_K  its whole text, in chunks (ss_attr_text)
 *   kernel_error_unkept    reports of signatures past KLOG_MAX_SIGS */
void klog_samples(const struct klog *k, struct sample_set *ss);

#endif
