/* Folded stacks, bounded (folded.h). */
#include "folded.h"
#include "escape.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void folded_name(char *out, size_t len, const char *in)
{
	size_t n = 0, cap = len < FOLDED_MAX_NAME ? len : FOLDED_MAX_NAME;
	for (const char *p = in; *p && n + 1 < cap;) {
		size_t u = utf8_valid_len(p);
		unsigned char c = (unsigned char)*p;
		if (u > 1 && n + u < cap) {
			memcpy(out + n, p, u);
			n += u;
			p += u;
			continue;
		}
		out[n++] = u == 1 && c > ' ' && c < 0x7f && c != ';' ? (char)c : '?';
		p += u ? u : 1;
	}
	if (!n)
		out[n++] = '?';
	out[n] = 0;
}

static size_t hash_of(const char *s)
{
	return (size_t)rb_fnv1a64(s, strlen(s));
}

static int grow_hash(struct folded *f)
{
	int cap = f->hcap ? 2 * f->hcap : 1024;
	int *h = calloc((size_t)cap, sizeof(int));
	if (!h)
		return -1;
	for (int i = 0; i < f->n; i++) {
		size_t k = hash_of(f->v[i].frames) & (size_t)(cap - 1);
		while (h[k])
			k = (k + 1) & (size_t)(cap - 1);
		h[k] = i + 1;
	}
	free(f->hash);
	f->hash = h;
	f->hcap = cap;
	return 0;
}

/* count more of the joined stack s (already safe): 0 or -1 full */
static int add_joined(struct folded *f, const char *s, double count)
{
	if ((f->n + 1) * 2 > f->hcap && grow_hash(f) < 0)
		return -1;
	size_t k = hash_of(s) & (size_t)(f->hcap - 1);
	while (f->hash[k] && strcmp(f->v[f->hash[k] - 1].frames, s))
		k = (k + 1) & (size_t)(f->hcap - 1);
	f->total += count;
	if (f->hash[k]) {
		f->v[f->hash[k] - 1].count += count;
		return 0;
	}
	if (f->n == FOLDED_MAX_STACKS) {
		f->dropped += count;
		return -1;
	}
	if (f->n == f->cap) {
		int cap = f->cap ? 2 * f->cap : 256;
		struct folded_stack *v = realloc(f->v, (size_t)cap * sizeof(*v));
		if (!v)
			abort();
		f->v = v;
		f->cap = cap;
	}
	char *copy = strdup(s);
	if (!copy)
		abort();
	f->v[f->n] = (struct folded_stack){ copy, count };
	f->hash[k] = ++f->n;
	return 0;
}

int folded_add(struct folded *f, const char *const *frames, int n, double count)
{
	char joined[FOLDED_MAX_FRAMES * FOLDED_MAX_NAME + 1], name[FOLDED_MAX_NAME];
	size_t len = 0;
	if (n <= 0 || !(count > 0) || !isfinite(count))
		return -1;
	int first = n > FOLDED_MAX_FRAMES ? n - FOLDED_MAX_FRAMES : 0; /* the leaf side */
	for (int i = first; i < n; i++) {
		folded_name(name, sizeof(name), frames[i] ? frames[i] : "?");
		size_t l = strlen(name);
		if (len)
			joined[len++] = ';';
		memcpy(joined + len, name, l);
		len += l;
	}
	joined[len] = 0;
	return add_joined(f, joined, count);
}

/* Splits s at ';' into at most cap frames (s is changed): how many, the
 * root side dropped past cap. */
static int split_frames(char *s, const char **frames, int cap)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(s, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
		if (n == cap) { /* keep the leaf side: shift one out at the root */
			memmove(frames, frames + 1, (size_t)(cap - 1) * sizeof(*frames));
			n--;
		}
		frames[n++] = t;
	}
	return n;
}

static int parse_count(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || (*end && *end != '\n') || !(*v > 0) || !isfinite(*v) ? -1 : 0;
}

int folded_add_line(struct folded *f, const char *line)
{
	const char *sp = strrchr(line, ' ');
	double count;
	if (!sp || sp == line || parse_count(sp + 1, &count) < 0)
		return -1;
	size_t n = (size_t)(sp - line);
	char *s = malloc(n + 1);
	if (!s)
		abort();
	memcpy(s, line, n);
	s[n] = 0;
	const char *frames[FOLDED_MAX_FRAMES];
	int nf = split_frames(s, frames, FOLDED_MAX_FRAMES);
	int rc = nf ? folded_add(f, frames, nf, count) : -1;
	free(s);
	return rc;
}

int folded_add_indexed(struct folded *f, const char *const *syms, int nsyms, const char *value)
{
	const char *sp = strchr(value, ' ');
	char count_s[40];
	double count;
	if (!sp || sp == value || (size_t)(sp - value) >= sizeof(count_s))
		return -1;
	snprintf(count_s, sizeof(count_s), "%.*s", (int)(sp - value), value);
	if (parse_count(count_s, &count) < 0)
		return -1;
	const char *frames[FOLDED_MAX_FRAMES];
	int n = 0;
	for (const char *p = sp + 1; *p;) {
		char *end;
		errno = 0;
		long i = strtol(p, &end, 10);
		if (errno || end == p || i < 0 || i >= nsyms || (*end && *end != ';'))
			return -1;
		if (n == FOLDED_MAX_FRAMES) {
			memmove(frames, frames + 1, (FOLDED_MAX_FRAMES - 1) * sizeof(*frames));
			n--;
		}
		frames[n++] = syms[i];
		p = *end ? end + 1 : end;
	}
	return n ? folded_add(f, frames, n, count) : -1;
}

static int by_count(const void *x, const void *y)
{
	const struct folded_stack *a = x, *b = y;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return strcmp(a->frames, b->frames);
}

void folded_sort(struct folded *f)
{
	if (f->n)
		qsort(f->v, (size_t)f->n, sizeof(*f->v), by_count);
	if (f->hcap) /* the order moved: index again */
		memset(f->hash, 0, (size_t)f->hcap * sizeof(int));
	for (int i = 0; i < f->n; i++) {
		size_t k = hash_of(f->v[i].frames) & (size_t)(f->hcap - 1);
		while (f->hash[k])
			k = (k + 1) & (size_t)(f->hcap - 1);
		f->hash[k] = i + 1;
	}
}

int folded_write(const struct folded *f, const char *path)
{
	FILE *out = rb_create_stream(path);
	if (!out)
		return -1;
	for (int i = 0; i < f->n; i++)
		fprintf(out, "%s %.0f\n", f->v[i].frames, f->v[i].count);
	return fclose(out);
}

void folded_free(struct folded *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->v[i].frames);
	free(f->v);
	free(f->hash);
	memset(f, 0, sizeof(*f));
}

struct share_acc {
	struct folded_share *v;
	int n, cap;
	int *hash, hcap;
};

/* The index of name's share in a, added when new. */
static int share_of(struct share_acc *a, const char *name)
{
	if ((a->n + 1) * 2 > a->hcap) {
		int cap = a->hcap ? 2 * a->hcap : 1024;
		int *h = calloc((size_t)cap, sizeof(int));
		if (!h)
			abort();
		for (int i = 0; i < a->n; i++) {
			size_t k = hash_of(a->v[i].name) & (size_t)(cap - 1);
			while (h[k])
				k = (k + 1) & (size_t)(cap - 1);
			h[k] = i + 1;
		}
		free(a->hash);
		a->hash = h;
		a->hcap = cap;
	}
	size_t k = hash_of(name) & (size_t)(a->hcap - 1);
	while (a->hash[k] && strcmp(a->v[a->hash[k] - 1].name, name))
		k = (k + 1) & (size_t)(a->hcap - 1);
	if (a->hash[k])
		return a->hash[k] - 1;
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 256;
		a->v = realloc(a->v, (size_t)a->cap * sizeof(*a->v));
		if (!a->v)
			abort();
	}
	struct folded_share *s = &a->v[a->n];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	a->hash[k] = ++a->n;
	return a->n - 1;
}

static int by_children(const void *x, const void *y)
{
	const struct folded_share *a = x, *b = y;
	if (a->children != b->children)
		return a->children < b->children ? 1 : -1;
	return strcmp(a->name, b->name);
}

int folded_shares(const struct folded *f, struct folded_share **out)
{
	struct share_acc a = { 0 };
	for (int i = 0; i < f->n; i++) {
		char buf[FOLDED_MAX_FRAMES * FOLDED_MAX_NAME + 1];
		const char *frames[FOLDED_MAX_FRAMES];
		snprintf(buf, sizeof(buf), "%s", f->v[i].frames);
		int n = split_frames(buf, frames, FOLDED_MAX_FRAMES);
		double pct = f->total > 0 ? 100 * f->v[i].count / f->total : 0;
		int seen[FOLDED_MAX_FRAMES], nseen = 0;
		for (int j = 0; j < n; j++) {
			int s = share_of(&a, frames[j]);
			bool again = false; /* a recursive frame counts once a stack */
			for (int k = 0; k < nseen && !again; k++)
				again = seen[k] == s;
			if (!again) {
				a.v[s].children += pct;
				seen[nseen++] = s;
			}
			if (j == n - 1)
				a.v[s].self += pct;
		}
	}
	free(a.hash);
	if (a.n)
		qsort(a.v, (size_t)a.n, sizeof(*a.v), by_children);
	*out = a.v;
	return a.n;
}
