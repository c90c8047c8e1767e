/* Kernel errors in a kernel log (klog.h).
 *
 *   klog_feed     bytes into lines, each cut at KLOG_LINE_MAX
 *   take_line     the line's prefixes off (level, time, caller), then:
 *     a report's first line (recognisers[]) opens a report, ending the one open
 *     a line of the open report: kept, its RIP and first own frame noted
 *     its end ("---[ end trace", KASAN's closing rule, the line bound) closes it
 *   close_report  the signature made, counted, the first report's text kept
 */
#include "klog.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum how {
	BY_RIP,   /* the function the CPU was in: "RIP: 0010:FUNC+0x.." */
	BY_AT,    /* WARNING's own: "at FILE:LINE FUNC+0x..", else RIP */
	BY_TRACE, /* the first frame of the call trace that is not the report's machinery */
	BY_KASAN, /* "BUG: KASAN: KIND in FUNC+0x..", then "Read of size" */
	BY_UBSAN, /* "UBSAN: KIND in FILE:LINE", the function from the trace */
	BY_HEAD,  /* the first line itself, its words with digits dropped */
};

struct recogniser {
	const char *kind;   /* klog_kinds[]'s name */
	const char *starts; /* the first line starts so (after "watchdog: ", "rcu: ") */
	const char *title;  /* the signature before " in FUNC"; NULL: made from the line */
	enum how how;
	bool preamble;      /* a line that the report printing it goes on from (list corruption) */
};

static const struct recogniser recognisers[] = {
	{ "KASAN", "BUG: KASAN: ", NULL, BY_KASAN, false },
	{ "UBSAN", "UBSAN: ", NULL, BY_UBSAN, false },
	{ "BUG", "BUG: kernel NULL pointer dereference", "BUG: kernel NULL pointer dereference", BY_RIP, false },
	{ "BUG", "BUG: unable to handle page fault", "BUG: unable to handle page fault", BY_RIP, false },
	{ "BUG", "BUG: unable to handle kernel", "BUG: unable to handle kernel paging request", BY_RIP, false },
	{ "BUG", "kernel BUG at ", "kernel BUG", BY_RIP, false },
	{ "GPF", "general protection fault", "general protection fault", BY_RIP, false },
	{ "GPF", "Oops: general protection fault", "general protection fault", BY_RIP, false },
	{ "LOCKUP", "BUG: soft lockup", "BUG: soft lockup", BY_RIP, false },
	{ "LOCKUP", "Watchdog detected hard LOCKUP", "hard LOCKUP", BY_RIP, false },
	{ "RCU", "INFO: rcu_", "INFO: rcu detected stall", BY_RIP, false },
	{ "HUNG", "INFO: task ", "INFO: task hung", BY_TRACE, false },
	{ "LOCKDEP", "WARNING: possible circular locking dependency", "possible deadlock", BY_TRACE, false },
	{ "LOCKDEP", "WARNING: possible recursive locking", "possible deadlock", BY_TRACE, false },
	{ "LOCKDEP", "WARNING: inconsistent lock state", "inconsistent lock state", BY_TRACE, false },
	{ "LOCKDEP", "WARNING: held lock freed", "held lock freed", BY_TRACE, false },
	{ "LOCKDEP", "WARNING: suspicious RCU usage", "suspicious RCU usage", BY_TRACE, false },
	{ "LOCKDEP", "WARNING: bad unlock balance", "bad unlock balance", BY_TRACE, false },
	{ "WARNING", "WARNING: CPU: ", "WARNING", BY_AT, false },
	{ "BUG", "BUG: Bad page state", "BUG: Bad page state", BY_TRACE, false },
	{ "BUG", "BUG: Bad page map", "BUG: Bad page map", BY_TRACE, false },
	{ "BUG", "BUG: Bad rss-counter state", NULL, BY_HEAD, false },
	{ "BUG", "BUG: sleeping function called from invalid context", "BUG: sleeping function called from invalid context",
	  BY_TRACE, false },
	{ "BUG", "BUG: scheduling while atomic", "BUG: scheduling while atomic", BY_TRACE, false },
	{ "LIST", "list_add corruption", "list_add corruption", BY_TRACE, true },
	{ "LIST", "list_del corruption", "list_del corruption", BY_TRACE, true },
	{ "PANIC", "Kernel panic - not syncing: ", NULL, BY_HEAD, false },
	{ "OOPS", "Oops: ", "Oops", BY_RIP, false },
	{ "OOPS", "invalid opcode: ", "invalid opcode", BY_RIP, false },
	{ "BUG", "BUG: ", NULL, BY_HEAD, false },
};
#define NRECOGNISERS (sizeof(recognisers) / sizeof(recognisers[0]))

const struct klog_kind klog_kinds[] = {
	{ "BUG", "BUG: kernel NULL pointer dereference in anon_vma_interval_tree_insert" },
	{ "OOPS", "Oops in page_referenced_one" },
	{ "GPF", "general protection fault in folio_lock_anon_vma_read" },
	{ "KASAN", "KASAN: use-after-free Read in folio_lock_anon_vma_read" },
	{ "UBSAN", "UBSAN: shift-out-of-bounds in vma_interval_tree_insert" },
	{ "WARNING", "WARNING in anon_vma_clone" },
	{ "LOCKDEP", "possible deadlock in anon_vma_fork" },
	{ "RCU", "INFO: rcu detected stall in unlink_anon_vmas" },
	{ "LOCKUP", "BUG: soft lockup in rmap_walk_anon" },
	{ "HUNG", "INFO: task hung in anon_vma_fork" },
	{ "LIST", "list_del corruption in unlink_anon_vmas" },
	{ "PANIC", "panic: Fatal exception" },
	{ NULL, NULL },
};

/* Frames of the reporting itself: a signature names the first function
 * past them, as syzbot's do. */
static const char *const machinery[] = {
	"dump_stack",        "dump_stack_lvl",      "show_stack",         "__warn",
	"warn_slowpath_fmt", "report_bug",          "handle_bug",         "exc_invalid_op",
	"do_error_trap",     "do_trap",             "die",                "die_addr",
	"panic",             "print_report",        "kasan_report",       "__asan_load",
	"__asan_store",      "check_region_inline", "kasan_check_range",  "__ubsan_handle",
	"ubsan_epilogue",    "lock_acquire",        "__lock_acquire",     "lock_release",
	"validate_chain",    "check_prev_add",      "check_noncircular",  "print_circular_bug",
	"print_usage_bug",   "mark_lock",           "lockdep_rcu_suspicious", "__might_sleep",
	"__might_resched",   "__might_fault",       "__schedule",         "schedule",
	"schedule_timeout",  "schedule_preempt_disabled", "io_schedule", "bad_page",
	"__list_del_entry_valid", "__list_add_valid", "__list_del_entry", "list_del",
	"check_and_free",    "__warn_printk",       "_printk",            "printk",
	"rcu_dump_cpu_stacks", "print_cpu_stall",   "watchdog_timer_fn",  "nmi_cpu_backtrace",
	"asm_exc_invalid_op", "asm_exc_page_fault", "asm_exc_general_protection", "exc_general_protection",
	"exc_page_fault",    "page_fault_oops",     "kernelmode_fixup_or_oops", "__bad_area_nosemaphore",
	"do_user_addr_fault", "mutex_lock_nested",  "down_write",         "down_read",
	"rwsem_down_write_slowpath", "rwsem_down_read_slowpath", "_raw_spin_lock", "_raw_spin_lock_irqsave",
	/* the lock's own release, where lockdep and DEBUG_RWSEMS speak: the
	 * caller is the bug's place, as syzbot titles it */
	"up_read",           "up_write",            "__up_read",          "__up_write",
	"downgrade_write",   "mutex_unlock",        "__mutex_unlock_slowpath", "_raw_spin_unlock",
	"_raw_spin_unlock_irqrestore", "_raw_spin_unlock_irq", "_raw_read_unlock", "_raw_write_unlock",
	"print_unlock_imbalance_bug", "reacquire_held_locks",
};

static bool is_machinery(const char *fn)
{
	if (!strncmp(fn, "__asan_", 7) || !strncmp(fn, "__kasan_", 8) || !strncmp(fn, "kasan_", 6) ||
	    !strncmp(fn, "__ubsan_", 8) || !strncmp(fn, "asm_", 4))
		return true;
	for (size_t i = 0; i < sizeof(machinery) / sizeof(machinery[0]); i++)
		if (!strcmp(fn, machinery[i]))
			return true;
	return false;
}

/* "FUNC+0x1d/0x2f0" at s: FUNC into out (a C name, its ".isra.0" or
 * ".cold" suffix off); false when s is not a symbol and an offset. */
static bool symbol(const char *s, char *out, size_t len)
{
	size_t n = 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.')
		n++;
	if (!n || strncmp(s + n, "+0x", 3) || isdigit((unsigned char)s[0]))
		return false;
	size_t dot = strcspn(s, ".");
	if (dot < n)
		n = dot;
	if (!n || n >= len || n > 64)
		return false;
	memcpy(out, s, n);
	out[n] = 0;
	return true;
}

/* The line's own text: the level ("<4>"), the time ("[   12.345678]")
 * and the caller ("[    T1]", "[C0]") off. */
static const char *unprefixed(const char *s)
{
	if (s[0] == '<' && isdigit((unsigned char)s[1])) {
		const char *e = s + 1;
		while (isdigit((unsigned char)*e))
			e++;
		if (*e == '>')
			s = e + 1;
	}
	for (int pass = 0; pass < 2 && *s == '['; pass++) {
		const char *e = s + 1;
		while (*e == ' ')
			e++;
		if (pass == 1 && (*e == 'T' || *e == 'C'))
			e++;
		if (!isdigit((unsigned char)*e))
			break;
		while (isdigit((unsigned char)*e) || *e == '.')
			e++;
		if (*e != ']')
			break;
		s = e + 1;
		while (*s == ' ')
			s++;
	}
	return s;
}

/* The recogniser whose report s begins, or -1. */
static int recognise(const char *s)
{
	if (!strncmp(s, "watchdog: ", 10))
		s += 10;
	else if (!strncmp(s, "rcu: ", 5))
		s += 5;
	for (size_t i = 0; i < NRECOGNISERS; i++)
		if (!strncmp(s, recognisers[i].starts, strlen(recognisers[i].starts))) {
			if (!strcmp(recognisers[i].kind, "HUNG") && !strstr(s, " blocked for more than "))
				continue;
			return (int)i;
		}
	return -1;
}

/* dst += src, bounded, control bytes as '?'. */
static void append(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(dst);
	for (; *src && n + 1 < cap; src++)
		dst[n++] = (unsigned char)*src < 0x20 || *src == 0x7f ? '?' : *src;
	dst[n] = 0;
}

/* words of s without those that hold a digit: "mm:0000 type:MM_ANONPAGES
 * val:1" is "type:MM_ANONPAGES" */
static void plain_words(const char *s, char *out, size_t len)
{
	char word[KLOG_LINE_MAX + 1];
	out[0] = 0;
	while (*s) {
		size_t n = strcspn(s, " \t");
		if (n && n < sizeof(word)) {
			memcpy(word, s, n);
			word[n] = 0;
			if (!strpbrk(word, "0123456789")) {
				if (out[0])
					append(out, len, " ");
				append(out, len, word);
			}
		}
		s += n;
		s += strspn(s, " \t");
	}
}

/* The function named on the first line after "at FILE:LINE " (WARNING)
 * or " in " (KASAN), into out: false when there is none. */
static bool named_after(const char *head, const char *mark, bool skip_word, char *out, size_t len)
{
	const char *p = strstr(head, mark);
	if (!p)
		return false;
	p += strlen(mark);
	if (skip_word && !(p = strchr(p, ' ')))
		return false;
	return symbol(p + skip_word, out, len);
}

static void title_of(const struct klog_cur *c, char *t, size_t len)
{
	const struct recogniser *r = &recognisers[c->kind];
	const char *head = c->head, *fn = c->trace[0] ? c->trace : c->rip;
	char own[KLOG_SIG_MAX];
	t[0] = 0;
	if (r->how == BY_RIP && c->rip[0])
		fn = c->rip;
	if (r->how == BY_AT && named_after(head, " at ", true, own, sizeof(own)))
		fn = own;
	if (r->how == BY_KASAN || r->how == BY_UBSAN) {
		/* "BUG: KASAN: use-after-free in F", "UBSAN: shift-out-of-bounds in FILE" */
		const char *k = strstr(head, r->how == BY_KASAN ? "KASAN: " : "UBSAN: ") + 7, *in = strstr(k, " in ");
		size_t n = in ? (size_t)(in - k) : strcspn(k, " ");
		snprintf(t, len, "%s: %.*s%s%s", r->kind, (int)(n < 40 ? n : 40), k, c->access[0] ? " " : "", c->access);
		if (r->how == BY_KASAN && named_after(head, " in ", false, own, sizeof(own)))
			fn = own;
	}
	if (r->how == BY_HEAD) {
		if (!strncmp(head, "Kernel panic - not syncing: ", 28)) {
			append(t, len, "panic: ");
			head += 28;
		}
		plain_words(head, t + strlen(t), len - strlen(t));
		return;
	}
	if (!t[0])
		snprintf(t, len, "%s", r->title);
	if (fn[0]) {
		append(t, len, " in ");
		append(t, len, fn);
	}
}

static void close_report(struct klog *k)
{
	struct klog_cur *c = &k->cur;
	if (c->kind < 0)
		return;
	char t[KLOG_SIG_MAX];
	title_of(c, t, sizeof(t));
	k->reports++;
	int i = 0;
	while (i < k->nsigs && strcmp(k->sigs[i].title, t))
		i++;
	if (i == k->nsigs && k->nsigs == KLOG_MAX_SIGS) {
		k->unkept++;
	} else {
		struct klog_sig *s = &k->sigs[i];
		if (i == k->nsigs) {
			k->nsigs++;
			snprintf(s->title, sizeof(s->title), "%s", t);
			s->kind = recognisers[c->kind].kind;
			memcpy(s->first, c->text, c->textlen + 1);
		}
		s->count++;
	}
	c->kind = -1;
}

static void open_report(struct klog *k, int kind, const char *s)
{
	struct klog_cur *c = &k->cur;
	close_report(k);
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	snprintf(c->head, sizeof(c->head), "%s", s);
}

/* A line of the open report: kept, and what names the report noted. */
static void report_line(struct klog *k, const char *s)
{
	struct klog_cur *c = &k->cur;
	if (c->textlen + 2 < sizeof(c->text)) {
		append(c->text, sizeof(c->text) - 1, s); /* room kept for the newline */
		c->textlen = strlen(c->text);
		c->text[c->textlen++] = '\n';
		c->text[c->textlen] = 0;
	}
	c->nlines++;
	const char *p = s + strspn(s, " \t");
	if (!c->access[0] && (!strncmp(p, "Read of size", 12) || !strncmp(p, "Write of size", 13)))
		snprintf(c->access, sizeof(c->access), "%s", p[0] == 'R' ? "Read" : "Write");
	else if (!c->rip[0] && !strncmp(p, "RIP: ", 5) && strchr(p, ':') && strchr(p + 5, ':'))
		symbol(strchr(p + 5, ':') + 1, c->rip, sizeof(c->rip));
	else if (!c->trace[0] && strncmp(p, "? ", 2)) {
		char fn[KLOG_SIG_MAX];
		if (symbol(p, fn, sizeof(fn)) && strchr(p, '/') && !is_machinery(fn))
			snprintf(c->trace, sizeof(c->trace), "%s", fn);
	}
	/* KASAN's report ends at its closing rule (its opening one came
	 * before its first line) */
	bool rule = !strncmp(p, "=====", 5) && !strcmp(recognisers[c->kind].kind, "KASAN");
	if (!strncmp(p, "---[ end trace", 14) || rule || c->nlines >= KLOG_REPORT_LINES)
		close_report(k);
}

static void take_line(struct klog *k, const char *raw)
{
	const char *s = unprefixed(raw);
	struct klog_cur *c = &k->cur;
	k->lines++;
	int kind = recognise(s);
	/* the lines a crash prints after its first ("Oops: 0000 [#1]" after
	 * "BUG: kernel NULL pointer dereference") and the WARNING or BUG that
	 * a list corruption's line comes before are the same report */
	bool goes_on = c->kind >= 0 && kind >= 0 && c->nlines < 12 &&
		       (!strcmp(recognisers[kind].kind, "OOPS") || recognisers[c->kind].preamble ||
			(!strcmp(recognisers[kind].kind, "GPF") && !strcmp(recognisers[c->kind].kind, "OOPS")));
	if (kind >= 0 && !goes_on)
		open_report(k, kind, s);
	if (c->kind >= 0)
		report_line(k, s);
}

void klog_init(struct klog *k)
{
	memset(k, 0, sizeof(*k));
	k->cur.kind = -1;
}

void klog_feed(struct klog *k, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char ch = buf[i];
		if (ch == '\n') {
			/* a serial console's lines end in CR LF */
			if (k->linelen && k->line[k->linelen - 1] == '\r')
				k->linelen--;
			k->line[k->linelen] = 0;
			take_line(k, k->line);
			k->linelen = 0;
			k->line_cut = false;
		} else if (k->linelen < KLOG_LINE_MAX) {
			k->line[k->linelen++] = ch ? ch : '?';
		} else {
			k->line_cut = true; /* the rest of a long line is dropped */
		}
	}
}

void klog_end(struct klog *k)
{
	if (k->linelen) {
		k->line[k->linelen] = 0;
		take_line(k, k->line);
		k->linelen = 0;
	}
	close_report(k);
}

void klog_samples(const struct klog *k, struct sample_set *ss)
{
	ss_add(ss, "kernel_error_reports", (double)k->reports, "reports");
	for (int i = 0; i < k->nsigs; i++) {
		char key[48];
		snprintf(key, sizeof(key), "kernel_error_%d", i + 1);
		ss_attr(ss, key, "%lu %s", k->sigs[i].count, k->sigs[i].title);
		snprintf(key, sizeof(key), "kernel_error_%d_first", i + 1);
		ss_attr(ss, key, "%.*s", (int)strcspn(k->sigs[i].first, "\n"), k->sigs[i].first);
		snprintf(key, sizeof(key), "kernel_error_%d", i + 1);
		ss_attr_text(ss, key, k->sigs[i].first, sizeof(k->sigs[i].first));
	}
	if (k->unkept)
		ss_attr(ss, "kernel_error_unkept", "%lu reports of signatures past the first %d", k->unkept,
			KLOG_MAX_SIGS);
}
