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

/* The entries' names come through name_of, so that the stacks and the
 * shares are indexed by one piece of code. */
typedef const char *(*name_of_fn)(const void *entries, int i);

/* The slot of name: where it is, or the free one where it would go. */
static size_t ni_slot(const struct folded_index *x, const char *name, name_of_fn name_of, const void *entries)
{
	size_t k = hash_of(name) & (size_t)(x->cap - 1);
	while (x->slot[k] && strcmp(name_of(entries, x->slot[k] - 1), name))
		k = (k + 1) & (size_t)(x->cap - 1);
	return k;
}

/* Room for one more of n entries: the index grown (and rebuilt) when
 * half full, or rebuilt as it is when the entries moved (force). */
static int ni_fit(struct folded_index *x, int n, bool force, name_of_fn name_of, const void *entries)
{
	if ((n + 1) * 2 <= x->cap && !force)
		return 0;
	int cap = x->cap ? ((n + 1) * 2 > x->cap ? 2 * x->cap : x->cap) : 1024;
	int *h = calloc((size_t)cap, sizeof(int));
	if (!h)
		return -1;
	free(x->slot);
	x->slot = h;
	x->cap = cap;
	for (int i = 0; i < n; i++)
		x->slot[ni_slot(x, name_of(entries, i), name_of, entries)] = i + 1;
	return 0;
}

static const char *stack_name(const void *v, int i)
{
	return ((const struct folded_stack *)v)[i].frames;
}

/* count more of the joined stack s (already safe): 0 or -1 full */
static int add_joined(struct folded *f, const char *s, double count)
{
	if (ni_fit(&f->index, f->n, false, stack_name, f->v) < 0)
		return -1;
	size_t k = ni_slot(&f->index, s, stack_name, f->v);
	f->total += count;
	if (f->index.slot[k]) {
		f->v[f->index.slot[k] - 1].count += count;
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
	f->index.slot[k] = ++f->n;
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
	if (f->index.cap && ni_fit(&f->index, f->n, true, stack_name, f->v) < 0) /* the order moved */
		abort();
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
	free(f->index.slot);
	memset(f, 0, sizeof(*f));
}

struct share_acc {
	struct folded_share *v;
	int n, cap;
	struct folded_index index;
};

static const char *share_name(const void *v, int i)
{
	return ((const struct folded_share *)v)[i].name;
}

/* The index of name's share in a, added when new. */
static int share_of(struct share_acc *a, const char *name)
{
	if (ni_fit(&a->index, a->n, false, share_name, a->v) < 0)
		abort();
	size_t k = ni_slot(&a->index, name, share_name, a->v);
	if (a->index.slot[k])
		return a->index.slot[k] - 1;
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 256;
		a->v = realloc(a->v, (size_t)a->cap * sizeof(*a->v));
		if (!a->v)
			abort();
	}
	struct folded_share *s = &a->v[a->n];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	a->index.slot[k] = ++a->n;
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
	free(a.index.slot);
	if (a.n)
		qsort(a.v, (size_t)a.n, sizeof(*a.v), by_children);
	*out = a.v;
	return a.n;
}
