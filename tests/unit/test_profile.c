/* The profile's parts that touch no kernel (collect/profile.c, ksyms.c,
 * lib/folded.c), bounded whatever they are given: a stack of 1,000
 * frames, a symbol of 10 KB, invalid UTF-8, ring records cut at every
 * length, a chain longer than its record; shares as lkp counts them. */
#include "folded.h"
#include "ksyms.h"
#include "profile.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t record(unsigned char *buf, uint32_t pid, uint64_t time, const uint64_t *ips, uint64_t nr)
{
	uint32_t type = 9, tid = pid;
	uint16_t misc = 1, size = (uint16_t)(8 + 24 + 8 * nr);
	memcpy(buf, &type, 4);
	memcpy(buf + 4, &misc, 2);
	memcpy(buf + 6, &size, 2);
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &tid, 4);
	memcpy(buf + 16, &time, 8);
	memcpy(buf + 24, &nr, 8);
	memcpy(buf + 32, ips, 8 * nr);
	return size;
}

static void shares(void)
{
	struct folded f = { 0 };
	const char *a[] = { "entry_SYSCALL_64", "do_syscall_64", "kernel_clone", "dup_mmap" };
	const char *b[] = { "asm_exc_page_fault", "do_wp_page", "wp_page_copy" };
	const char *r[] = { "rec", "rec", "rec" };
	folded_add(&f, a, 4, 3);
	folded_add(&f, b, 3, 1);
	folded_add(&f, r, 3, 0); /* a zero count is refused */
	CHECK(f.n == 2 && f.total == 4, "two stacks, four samples (%d, %g)", f.n, f.total);
	folded_add(&f, r, 3, 4);
	struct folded_share *s = NULL;
	int n = folded_shares(&f, &s);
	double kc = -1, ks = -1, rec = -1;
	for (int i = 0; i < n; i++) {
		if (!strcmp(s[i].name, "kernel_clone"))
			kc = s[i].children, ks = s[i].self;
		if (!strcmp(s[i].name, "rec"))
			rec = s[i].children;
	}
	CHECK(fabs(kc - 37.5) < 1e-9 && ks == 0, "kernel_clone: children 37.5%%, self 0 (%g, %g)", kc, ks);
	CHECK(fabs(rec - 50) < 1e-9, "a recursive frame counts once a stack: 50%% (%g)", rec);
	CHECK(n > 1 && s[0].children >= s[1].children, "children's largest first");
	free(s);
	folded_free(&f);
}

static void bounds(void)
{
	struct folded f = { 0 };
	static const char *deep[1000];
	char names[1000][16];
	for (int i = 0; i < 1000; i++) {
		snprintf(names[i], sizeof(names[i]), "f%d", i);
		deep[i] = names[i];
	}
	CHECK(folded_add(&f, deep, 1000, 1) == 0, "a stack of 1,000 frames is taken");
	CHECK(f.n == 1 && !strncmp(f.v[0].frames, "f968;", 5) && strstr(f.v[0].frames, ";f999") &&
		      !strstr(f.v[0].frames, "f967"),
	      "cut to its 32 leaf-side frames: %.40s...", f.v[0].frames);
	static char big[10240];
	memset(big, 'x', sizeof(big) - 1);
	const char *one[] = { big };
	folded_add(&f, one, 1, 1);
	CHECK(f.n == 2 && strlen(f.v[1].frames) == FOLDED_MAX_NAME - 1, "a 10 KB symbol cut to %d bytes",
	      FOLDED_MAX_NAME - 1);
	const char *bad[] = { "ok\xff\xfe", "a;b c", "caf\xc3\xa9" };
	folded_add(&f, bad, 3, 1);
	CHECK(f.n == 3 && !strcmp(f.v[2].frames, "ok??;a?b?c;caf\xc3\xa9"),
	      "invalid UTF-8, ';' and spaces become '?', valid UTF-8 stays: %s", f.v[2].frames);
	CHECK(folded_add_line(&f, "a;b 12") == 0 && folded_add_line(&f, "a;b") < 0 && folded_add_line(&f, "a;b -3") < 0 &&
		      folded_add_line(&f, "a;b nan") < 0 && folded_add_line(&f, " 5") < 0 &&
		      folded_add_line(&f, ";;; 5") < 0,
	      "lines: a count is required, finite and positive; a stack is not empty");
	const char *syms[] = { "root", "mid", "leaf" };
	CHECK(folded_add_indexed(&f, syms, 3, "7 0;1;2") == 0 && folded_add_indexed(&f, syms, 3, "7 0;3") < 0 &&
		      folded_add_indexed(&f, syms, 3, "7 0;-1") < 0 && folded_add_indexed(&f, syms, 3, "x 0") < 0 &&
		      folded_add_indexed(&f, syms, 3, "7 ") < 0 && folded_add_indexed(&f, syms, 3, "7 0;;1") < 0,
	      "indexed stacks: an index outside the symbols or a bad count is refused");
	folded_free(&f);
	for (int i = 0; i < FOLDED_MAX_STACKS + 10; i++) {
		char name[16];
		snprintf(name, sizeof(name), "s%d", i);
		const char *fr[] = { name };
		folded_add(&f, fr, 1, 1);
	}
	CHECK(f.n == FOLDED_MAX_STACKS && f.dropped == 10 && f.total == FOLDED_MAX_STACKS + 10,
	      "at most %d stacks, the rest counted as dropped (%g)", FOLDED_MAX_STACKS, f.dropped);
	folded_free(&f);
}

static void records(void)
{
	unsigned char buf[4096];
	uint64_t ips[4] = { (uint64_t)-128 /* PERF_CONTEXT_KERNEL */, 0xffffffff81000150ull, 0xffffffff81000230ull,
			    0xffffffff81000010ull };
	size_t len = record(buf, 42, 1000, ips, 4);
	struct prof_sample s;
	CHECK(profile_parse_record(buf, len, &s) == 1 && s.pid == 42 && s.time == 1000 && s.nr == 3,
	      "a sample: pid, time, three kernel frames without the context marker");
	int cut_ok = 1;
	for (size_t l = 0; l < len; l++)
		cut_ok &= profile_parse_record(buf, l, &s) == -1;
	CHECK(cut_ok, "a record cut at every length short of its own is refused");
	uint64_t nr = 1000000;
	memcpy(buf + 24, &nr, 8);
	CHECK(profile_parse_record(buf, len, &s) == -1, "a chain longer than its record is refused");
	static uint64_t many[PROFILE_MAX_CHAIN];
	for (int i = 0; i < PROFILE_MAX_CHAIN; i++)
		many[i] = 0xffffffff81000000ull + (uint64_t)i * 16;
	len = record(buf, 1, 1, many, PROFILE_MAX_CHAIN);
	CHECK(profile_parse_record(buf, len, &s) == 1 && s.nr == FOLDED_MAX_FRAMES,
	      "a chain of %d frames keeps its %d leaf-side ones", PROFILE_MAX_CHAIN, FOLDED_MAX_FRAMES);
	uint32_t other = 2; /* PERF_RECORD_LOST */
	memcpy(buf, &other, 4);
	CHECK(profile_parse_record(buf, len, &s) == 0, "another record type is passed over");

	const char *kall = "ffffffff81000000 T _stext\nffffffff81000100 t do_wp_page\nffffffff81000200 T "
			   "wp_page_copy\t[mod]\nffffffff81000300 d some_data\ngarbage line\nffffffff8100\n";
	struct ksyms k;
	int parsed = ksyms_parse(&k, kall, strlen(kall));
	CHECK(parsed == 0 && k.n == 3, "kallsyms: the text symbols (%d)", k.n);
	CHECK(!strcmp(ksyms_name(&k, 0xffffffff81000150ull), "do_wp_page") &&
		      !strcmp(ksyms_name(&k, 0xffffffff81000230ull), "wp_page_copy") && !ksyms_name(&k, 0x10),
	      "an address names the function holding it; below every symbol, none");
	struct folded f = { 0 };
	len = record(buf, 42, 1000, ips, 4);
	profile_parse_record(buf, len, &s);
	profile_fold(&f, &k, &s);
	CHECK(f.n == 1 && !strcmp(f.v[0].frames, "_stext;wp_page_copy;do_wp_page"), "folded root first: %s",
	      f.n ? f.v[0].frames : "");
	s.nr = 0;
	profile_fold(&f, &k, &s);
	CHECK(f.n == 2 && !strcmp(f.v[1].frames, "[user]"), "a sample without kernel frames is [user]");
	struct sample_set ss = { 0 };
	profile_rows(&ss, &f);
	const struct sample *c = ss_find(&ss, "profile.children.do_wp_page");
	/* heaviest first, then by name: "[user]" sorts before "_stext;..." */
	const struct attr *st = ss_attr_find(&ss, "profile_stack_1"), *sym = ss_attr_find(&ss, "profile_sym_1");
	CHECK(c && c->value == 50 && ss_find(&ss, "profile_samples")->value == 2, "rows: do_wp_page children 50%%");
	CHECK(st && sym && !strcmp(sym->value, "_stext") && !strcmp(st->value, "1 1;2;3"),
	      "stacks kept as symbol indexes: %s", st ? st->value : "none");
	ss_free(&ss);
	folded_free(&f);
	ksyms_free(&k);
	static char huge[20000];
	memset(huge, 'a', sizeof(huge) - 1);
	memcpy(huge, "ffffffff81000000 T ", 19);
	CHECK(ksyms_parse(&k, huge, strlen(huge)) == 0 && strlen(k.v[0].name) == FOLDED_MAX_NAME - 1,
	      "a 20 KB kallsyms line: its name cut");
	ksyms_free(&k);
	char metric[64];
	profile_metric(metric, sizeof(metric), "children", huge + 19);
	CHECK(strlen(metric) == 63, "a metric name fits its column");
}

int main(void)
{
	shares();
	bounds();
	records();
	return tap_done();
}
