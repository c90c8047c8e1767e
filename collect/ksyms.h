/* The running kernel's text symbols from /proc/kallsyms (root sees the
 * addresses; kptr_restrict hides them from others, which is said), for
 * naming the frames of a kernel callchain. Lines are outside bytes to
 * the parser: each cut at 512 bytes, a name made safe as a folded
 * frame (lib/folded.h). */
#ifndef RMAPBENCH_KSYMS_H
#define RMAPBENCH_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	char *name;
};

struct ksyms {
	struct ksym *v;
	int n;
};

/* 0, or -1 with why (no file, no text symbols, addresses hidden). */
int ksyms_load(struct ksyms *k, const char *path, char *why, size_t len);
/* Reads the text of a kallsyms file (for tests and the fuzzer). */
int ksyms_parse(struct ksyms *k, const char *text, size_t len);
/* The function holding ip, or NULL when it is below every symbol. */
const char *ksyms_name(const struct ksyms *k, uint64_t ip);
void ksyms_free(struct ksyms *k);

#endif
