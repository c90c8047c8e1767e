/* Folded stacks, as Brendan Gregg's flamegraph.pl reads them ("root;
 * ...;leaf COUNT"), kept bounded whatever they come from (a kernel's
 * symbols, a guest's frames, a database): at most FOLDED_MAX_FRAMES
 * frames a stack (the leaf side kept, as perf report cuts a callchain),
 * FOLDED_MAX_NAME - 1 bytes a frame, printable ASCII and valid UTF-8
 * (anything else, ';' and spaces become '?'), FOLDED_MAX_STACKS stacks
 * (then counted as dropped). With each function's share: self (the
 * leaf) and children (anywhere in the stack, once a stack), the rows lkp
 * reports as perf-profile.self and perf-profile.children. */
#ifndef RMAPBENCH_FOLDED_H
#define RMAPBENCH_FOLDED_H

#include <stddef.h>

#define FOLDED_MAX_FRAMES 32
#define FOLDED_MAX_NAME 64
#define FOLDED_MAX_STACKS 4096

struct folded_stack {
	char *frames; /* "a;b;c", root first */
	double count;
};

/* An open-addressed index of names: slot[k] is an entry's index + 1, or
 * 0 free (folded.c). */
struct folded_index {
	int *slot;
	int cap;
};

struct folded {
	struct folded_stack *v;
	int n, cap;
	struct folded_index index; /* of v by frames */
	double total, dropped;
};

/* A frame's name made safe (out is FOLDED_MAX_NAME bytes or more). */
void folded_name(char *out, size_t len, const char *in);
/* count more of the stack frames[0..n) (root first; names made safe): 0,
 * or -1 when the stack table is full (counted in dropped). */
int folded_add(struct folded *f, const char *const *frames, int n, double count);
/* A line "a;b;c COUNT" (outside bytes): 0, or -1 refused (no count, a
 * count that is not a finite positive number, an empty stack). */
int folded_add_line(struct folded *f, const char *line);
/* A stack as its symbols' indexes, "COUNT i;j;k" (the compact form a
 * point's attributes carry: profile_sym_N names, profile_stack_N stacks):
 * 0, or -1 refused (an index out of syms, a bad count). */
int folded_add_indexed(struct folded *f, const char *const *syms, int nsyms, const char *value);
/* Heaviest first (then by name): the order of files and of the rows. */
void folded_sort(struct folded *f);
/* Writes "stack COUNT" lines. */
int folded_write(const struct folded *f, const char *path);
void folded_free(struct folded *f);

struct folded_share {
	char name[FOLDED_MAX_NAME];
	double self, children; /* percent of f->total */
};
/* Every function's shares, children's largest first: how many (into
 * *out, freed by the caller); -1 out of memory. */
int folded_shares(const struct folded *f, struct folded_share **out);

#endif
