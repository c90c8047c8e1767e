/* Command-line flags by table: each command lists its flags, what each
 * takes and where it goes; one parser reads them (--name VALUE or
 * --name=VALUE, anywhere among the positional arguments) and says what is
 * wrong in one line naming the flag. */
#ifndef RMAPBENCH_FLAGS_H
#define RMAPBENCH_FLAGS_H

#include <stdbool.h>
#include <stddef.h>

enum flag_kind {
	FLAG_BOOL,    /* bool *: set when present */
	FLAG_STRING,  /* const char **: the value */
	FLAG_STRINGS, /* const char **[cap], *count: repeatable */
	FLAG_ULONG,   /* unsigned long *: 0 to max */
	FLAG_ULIST,   /* unsigned long [cap], *count: N or N,N,... each 0 to max */
	FLAG_DOUBLE,  /* double *: > 0, at most max */
};

struct flag {
	const char *name; /* "--variant" */
	enum flag_kind kind;
	void *dst;
	unsigned long max; /* FLAG_ULONG, FLAG_ULIST, FLAG_DOUBLE */
	size_t cap;        /* FLAG_STRINGS, FLAG_ULIST */
	int *count;        /* FLAG_STRINGS, FLAG_ULIST */
};

/* Parses argv[0..argc) against the table (ended by a NULL name); the
 * positional arguments go to pos (at most pos_cap, their number into
 * *npos). -1 with the error said ("CMD: ...", or no prefix when cmd is
 * NULL). */
int flags_parse(const char *cmd, const struct flag *table, int argc, char **argv, const char **pos, int pos_cap,
		int *npos);
/* Whether the command's first argument asks for its usage (--help, -h). */
bool flags_help(int argc, char **argv);
/* The flag of the table that argv names (with or without =VALUE), or NULL. */
const struct flag *flags_find(const struct flag *table, const char *arg);

#endif
