/* Kernel errors in a kernel log: each kind's report as 6.1 prints it
 * given its signature, the same signature whatever the addresses, pids
 * and times, and hostile logs (lines without end, a megabyte line, NUL
 * bytes, more signatures than kept, a report cut mid-line) bounded. */
#include "klog.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static struct klog k;

static void parse(const char *text)
{
	klog_init(&k);
	klog_feed(&k, text, strlen(text));
	klog_end(&k);
}

static const struct klog_sig *sig(const char *title)
{
	for (int i = 0; i < k.nsigs; i++)
		if (!strcmp(k.sigs[i].title, title))
			return &k.sigs[i];
	return NULL;
}

static const char warning[] =
	"[   12.345678] ------------[ cut here ]------------\n"
	"[   12.345679] WARNING: CPU: 1 PID: 234 at mm/rmap.c:273 anon_vma_clone+0x1d2/0x2f0\n"
	"[   12.345680] Modules linked in:\n"
	"[   12.345681] CPU: 1 PID: 234 Comm: oopshunt Not tainted 6.1.0 #1\n"
	"[   12.345682] RIP: 0010:anon_vma_clone+0x1d2/0x2f0\n"
	"[   12.345683] Call Trace:\n"
	"[   12.345684]  <TASK>\n"
	"[   12.345685]  anon_vma_fork+0x2b/0x140\n"
	"[   12.345686]  dup_mmap+0x3a1/0x700\n"
	"[   12.345690]  </TASK>\n"
	"[   12.345691] ---[ end trace 0000000000000000 ]---\n";

static const char warning_again[] =
	"<4>[  99.000001] [ T7] WARNING: CPU: 0 PID: 4711 at mm/rmap.c:273 anon_vma_clone+0x1d2/0x2f0\n"
	"<4>[  99.000002] [ T7] RIP: 0010:anon_vma_clone+0x1d2/0x2f0\n"
	"<4>[  99.000003] [ T7] ---[ end trace 1234567890abcdef ]---\n";

static const char nullderef[] =
	"BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	"#PF: supervisor read access in kernel mode\n"
	"#PF: error_code(0x0000) - not-present page\n"
	"PGD 0 P4D 0 \n"
	"Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
	"CPU: 0 PID: 17 Comm: kswapd0 Not tainted 6.1.0 #1\n"
	"RIP: 0010:page_lock_anon_vma_read+0x4c/0x160\n"
	"Call Trace:\n"
	" <TASK>\n"
	" ? page_referenced_one+0x10/0x10\n"
	" rmap_walk_anon+0x5a/0x1d0\n"
	" </TASK>\n"
	"---[ end trace 0000000000000000 ]---\n"
	"Kernel panic - not syncing: Fatal exception\n"
	"Kernel Offset: disabled\n"
	"---[ end Kernel panic - not syncing: Fatal exception ]---\n";

static const char kasan[] =
	"==================================================================\n"
	"BUG: KASAN: use-after-free in folio_lock_anon_vma_read+0x2f4/0x370\n"
	"Read of size 8 at addr ffff888004a5e2d0 by task kswapd0/17\n"
	"\n"
	"CPU: 0 PID: 17 Comm: kswapd0 Not tainted 6.1.0 #1\n"
	"Call Trace:\n"
	" <TASK>\n"
	" dump_stack_lvl+0x34/0x48\n"
	" print_report+0x172/0x475\n"
	" kasan_report+0xbb/0xf0\n"
	" folio_lock_anon_vma_read+0x2f4/0x370\n"
	" rmap_walk_anon+0x24/0x1d0\n"
	" </TASK>\n"
	"Memory state around the buggy address:\n"
	" ffff888004a5e180: fb fb fb fb fb fb fb fb fb fb fb fb fb fb fb fb\n"
	"==================================================================\n"
	"oopshunt: a line of the workload's after the report\n";

static const char lockdep[] =
	"======================================================\n"
	"WARNING: possible circular locking dependency detected\n"
	"6.1.0 #1 Not tainted\n"
	"------------------------------------------------------\n"
	"oopshunt/300 is trying to acquire lock:\n"
	"ffff88800334 (&anon_vma->rwsem){++++}-{3:3}, at: anon_vma_fork+0x9c/0x1d0\n"
	"stack backtrace:\n"
	"Call Trace:\n"
	" <TASK>\n"
	" dump_stack_lvl+0x5b/0x77\n"
	" check_noncircular+0x10f/0x130\n"
	" __lock_acquire+0x1165/0x1e40\n"
	" lock_acquire+0xd3/0x2f0\n"
	" down_write+0x2e/0x90\n"
	" anon_vma_fork+0x9c/0x1d0\n"
	" </TASK>\n";

static const char others[] =
	"BUG: Bad rss-counter state mm:00000000c2f5a3b2 type:MM_ANONPAGES val:1\n"
	"watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [oopshunt:123]\n"
	"RIP: 0010:unlink_anon_vmas+0x61/0x1c0\n"
	"list_del corruption. prev->next should be ffff888003a1b2c0, but was ffff888003a1b2d0\n"
	"------------[ cut here ]------------\n"
	"WARNING: CPU: 0 PID: 5 at lib/list_debug.c:59 __list_del_entry_valid+0x8a/0xd0\n"
	"RIP: 0010:__list_del_entry_valid+0x8a/0xd0\n"
	"Call Trace:\n"
	" <TASK>\n"
	" unlink_anon_vmas+0x9b/0x1c0\n"
	" </TASK>\n"
	"---[ end trace 0000000000000000 ]---\n"
	"INFO: task oopshunt:99 blocked for more than 122 seconds.\n"
	"Call Trace:\n"
	" __schedule+0x31c/0x9f0\n"
	" schedule+0x5d/0xd0\n"
	" rwsem_down_write_slowpath+0x2a4/0x6b0\n"
	" anon_vma_fork.cold+0x2a/0x1d0\n"
	"UBSAN: shift-out-of-bounds in mm/interval_tree.c:21:1\n"
	"Call Trace:\n"
	" dump_stack_lvl+0x5b/0x77\n"
	" ubsan_epilogue+0x5/0x40\n"
	" __ubsan_handle_shift_out_of_bounds+0x1e7/0x200\n"
	" vma_interval_tree_insert+0x11/0x20\n"
	"---[ end trace 0000000000000000 ]---\n";

/* What dangling-anon-vma+debug printed under oopshunt (point 2 of the
 * record's first compare-kernels, cut): a freed anon_vma reused by
 * another family, its lock taken on one root and released on another. */
static const char unlock_balance[] =
	"=====================================\n"
	"WARNING: bad unlock balance detected!\n"
	"6.1.192 #1 Not tainted\n"
	"-------------------------------------\n"
	"rmapbench-load/33 is trying to release lock (&anon_vma->rwsem) at:\n"
	"[<ffffffff812dd9f3>] folio_referenced+0x13b/0x256\n"
	"but there are no more locks to release!\n"
	"\n"
	"stack backtrace:\n"
	"CPU: 1 PID: 33 Comm: rmapbench-load Not tainted 6.1.192 #1 \n"
	"Call Trace:\n"
	" <TASK>\n"
	" dump_stack_lvl+0x4c/0x5f\n"
	" lock_release+0x283/0x5e4\n"
	" ? folio_referenced+0x13b/0x256\n"
	" ? reacquire_held_locks+0x2a5/0x2a5\n"
	" up_read+0x12/0x1b\n"
	" folio_referenced+0x13b/0x256\n"
	" ? rmap_walk+0x46/0x46\n"
	" shrink_folio_list+0x73f/0x16d2\n"
	" </TASK>\n";

int main(void)
{
	parse(unlock_balance);
	CHECK(k.nsigs == 1 && !strcmp(k.sigs[0].title, "bad unlock balance in folio_referenced") &&
		      !strcmp(k.sigs[0].kind, "LOCKDEP"),
	      "the positive control's lockdep report, titled at the lock's caller: %s",
	      k.nsigs ? k.sigs[0].title : "none");
	CHECK(k.nsigs == 1 && strstr(k.sigs[0].first, "detected!\n6.1.192 #1 Not tainted\n") &&
		      !strstr(k.sigs[0].first, "!?"),
	      "its text kept line by line, the newlines not made '?'");
	static char crlf[sizeof(unlock_balance) * 2];
	size_t n = 0;
	for (const char *p = unlock_balance; *p; p++) {
		if (*p == '\n')
			crlf[n++] = '\r';
		crlf[n++] = *p;
	}
	parse(crlf);
	CHECK(k.nsigs == 1 && !strcmp(k.sigs[0].title, "bad unlock balance in folio_referenced") &&
		      !strchr(k.sigs[0].first, '\r') && !strstr(k.sigs[0].first, "!?"),
	      "the same from a serial console (CR LF): the same signature and text");
	parse(warning);
	const struct klog_sig *s = sig("WARNING in anon_vma_clone");
	CHECK(k.nsigs == 1 && s && s->count == 1 && !strcmp(s->kind, "WARNING"), "a WARNING: %s",
	      k.nsigs ? k.sigs[0].title : "none");
	CHECK(s && strstr(s->first, "mm/rmap.c:273") && strstr(s->first, "end trace") && !strstr(s->first, "[   12."),
	      "its text kept, the timestamps off");
	klog_init(&k);
	klog_feed(&k, warning, strlen(warning));
	klog_feed(&k, warning_again, strlen(warning_again));
	klog_end(&k);
	CHECK(k.nsigs == 1 && k.sigs[0].count == 2 && k.reports == 2,
	      "other pids, cpus, times, levels and callers: the same signature, counted twice (%d, %lu)", k.nsigs,
	      k.nsigs ? k.sigs[0].count : 0);
	/* the same text fed a byte at a time */
	klog_init(&k);
	for (size_t i = 0; warning[i]; i++)
		klog_feed(&k, warning + i, 1);
	klog_end(&k);
	CHECK(k.nsigs == 1 && !strcmp(k.sigs[0].title, "WARNING in anon_vma_clone"), "fed a byte at a time");

	parse(nullderef);
	CHECK(sig("BUG: kernel NULL pointer dereference in page_lock_anon_vma_read") && sig("panic: Fatal exception") &&
		      k.nsigs == 2,
	      "a NULL dereference (its Oops line the same report) and the panic: %s; %s", k.nsigs ? k.sigs[0].title : "",
	      k.nsigs > 1 ? k.sigs[1].title : "");

	parse(kasan);
	s = sig("KASAN: use-after-free Read in folio_lock_anon_vma_read");
	CHECK(k.nsigs == 1 && s, "KASAN: %s", k.nsigs ? k.sigs[0].title : "none");
	CHECK(s && strstr(s->first, "Memory state") && !strstr(s->first, "a line of the workload"),
	      "KASAN's report ends at its closing rule");

	parse(lockdep);
	CHECK(k.nsigs == 1 && sig("possible deadlock in anon_vma_fork"), "lockdep: %s", k.nsigs ? k.sigs[0].title : "");

	parse(others);
	const char *want[] = { "BUG: Bad rss-counter state type:MM_ANONPAGES", "BUG: soft lockup in unlink_anon_vmas",
			       "list_del corruption in unlink_anon_vmas", "INFO: task hung in anon_vma_fork",
			       "UBSAN: shift-out-of-bounds in vma_interval_tree_insert" };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK(sig(want[i]) != NULL, "recognised: %s", want[i]);
	CHECK(k.nsigs == 5, "and nothing else (%d signatures; the WARNING after the list corruption's line is its report)",
	      k.nsigs);

	/* hostile logs */
	klog_init(&k);
	char *big = malloc(1 << 20);
	memset(big, 'A', 1 << 20);
	memcpy(big, "BUG: ", 5);
	klog_feed(&k, big, 1 << 20);
	klog_feed(&k, "\n", 1);
	klog_end(&k);
	CHECK(k.nsigs == 1 && strlen(k.sigs[0].title) < KLOG_SIG_MAX && strlen(k.sigs[0].first) < KLOG_TEXT_MAX,
	      "a one-megabyte line: one report, its title and text bounded");
	klog_init(&k);
	for (int i = 0; i < 1000; i++) {
		char line[200];
		snprintf(line, sizeof(line), "WARNING: CPU: 0 PID: 1 at mm/x.c:1 fn_%c%c+0x1/0x2\n", 'a' + i % 26,
			 'a' + i / 26 % 26);
		klog_feed(&k, line, strlen(line));
	}
	klog_end(&k);
	CHECK(k.nsigs == KLOG_MAX_SIGS && k.reports == 1000 && k.unkept > 0,
	      "a log of reports without end: %d signatures kept, %lu reports, %lu of others counted", k.nsigs, k.reports,
	      k.unkept);
	klog_init(&k);
	const char nul[] = "WARNING: CPU: 0 PID: 1 at a.c:1 f\0\0g+0x1/0x2\nRIP: 0010:f+0x1/0x2";
	klog_feed(&k, nul, sizeof(nul) - 1);
	klog_end(&k);
	CHECK(k.nsigs == 1 && !strcmp(k.sigs[0].title, "WARNING in f"),
	      "NUL bytes and a report cut mid-line: %s", k.nsigs ? k.sigs[0].title : "none");
	klog_init(&k);
	const char fake[] = "<12>oopshunt: BUG: a fake report\x1b[2J from userspace\n";
	klog_feed(&k, fake, sizeof(fake) - 1);
	klog_end(&k);
	CHECK(k.nsigs == 0, "a line that only contains a report's words is not one");
	klog_init(&k);
	const char fake2[] = "<12>BUG: a fake report\x1b[2J from userspace\n";
	klog_feed(&k, fake2, sizeof(fake2) - 1);
	klog_end(&k);
	CHECK(k.nsigs == 1 && !strchr(k.sigs[0].first, 0x1b), "a fake report written to /dev/kmsg: counted, its escape "
							     "bytes not kept (%s)",
	      k.nsigs ? k.sigs[0].title : "");
	free(big);
	return tap_done();
}
