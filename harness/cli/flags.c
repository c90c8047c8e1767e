#include "flags.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "CMD: " before a message, nothing for the global options (cmd NULL) */
#define P(cmd) ((cmd) ? (cmd) : ""), ((cmd) ? ": " : "")

const struct flag *flags_find(const struct flag *table, const char *arg)
{
	size_t len = strcspn(arg, "=");
	for (const struct flag *f = table; f->name; f++)
		if (strlen(f->name) == len && !strncmp(f->name, arg, len))
			return f;
	return NULL;
}

static int parse_ulong(const char *cmd, const char *flag, const char *v, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long x = strtoul(v, &end, 10);
	if (errno || end == v || *end || x > max || v[0] == '-' || v[0] == '+' || v[0] == ' ') {
		rb_error("%s%s%s %s: expected an integer from 0 to %lu", P(cmd), flag, v, max);
		return -1;
	}
	*out = x;
	return 0;
}

static int set_flag(const char *cmd, const struct flag *f, const char *v)
{
	switch (f->kind) {
	case FLAG_BOOL:
		*(bool *)f->dst = true;
		return 0;
	case FLAG_STRING:
		*(const char **)f->dst = v;
		return 0;
	case FLAG_STRINGS:
		if ((size_t)*f->count >= f->cap) {
			rb_error("%s%s%s: at most %zu", P(cmd), f->name, f->cap);
			return -1;
		}
		((const char **)f->dst)[(*f->count)++] = v;
		return 0;
	case FLAG_ULONG:
		return parse_ulong(cmd, f->name, v, f->max, f->dst);
	case FLAG_ULIST: {
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", v);
		*f->count = 0;
		for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if ((size_t)*f->count == f->cap) {
				rb_error("%s%s%s %s: at most %zu values", P(cmd), f->name, v, f->cap);
				return -1;
			}
			if (parse_ulong(cmd, f->name, tok, f->max, &((unsigned long *)f->dst)[*f->count]) < 0)
				return -1;
			++*f->count;
		}
		if (!*f->count) {
			rb_error("%s%s%s '%s': expected an integer or a comma-separated list", P(cmd), f->name, v);
			return -1;
		}
		return 0;
	}
	case FLAG_DOUBLE: {
		char *end;
		errno = 0;
		double x = strtod(v, &end);
		if (errno || end == v || *end || !(x > 0) || x > (double)f->max) {
			rb_error("%s%s%s %s: expected a number above 0, at most %lu", P(cmd), f->name, v, f->max);
			return -1;
		}
		*(double *)f->dst = x;
		return 0;
	}
	}
	return -1;
}

int flags_parse(const char *cmd, const struct flag *table, int argc, char **argv, const char **pos, int pos_cap,
		int *npos)
{
	*npos = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1]) {
			if (*npos == pos_cap) {
				rb_error("%s%sunexpected argument '%s'", P(cmd), a);
				return -1;
			}
			pos[(*npos)++] = a;
			continue;
		}
		const struct flag *f = flags_find(table, a);
		if (!f) {
			rb_error("%s%sunknown option '%s'", P(cmd), a);
			return -1;
		}
		const char *eq = strchr(a, '=');
		const char *v = NULL;
		if (f->kind == FLAG_BOOL) {
			if (eq) {
				rb_error("%s%s%s takes no value", P(cmd), f->name);
				return -1;
			}
		} else if (eq) {
			v = eq + 1;
		} else if (i + 1 < argc) {
			v = argv[++i];
		} else {
			rb_error("%s%s%s needs a value", P(cmd), f->name);
			return -1;
		}
		if (set_flag(cmd, f, v) < 0)
			return -1;
	}
	return 0;
}

bool flags_help(int argc, char **argv)
{
	return argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"));
}
