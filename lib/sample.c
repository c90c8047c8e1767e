#include "sample.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct sample *grow(struct sample_set *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct sample *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			abort();
		s->v = v;
		s->cap = cap;
	}
	struct sample *x = &s->v[s->n++];
	memset(x, 0, sizeof(*x));
	return x;
}

void ss_add(struct sample_set *s, const char *metric, double value, const char *unit)
{
	/* nan or inf from a workload, a guest or a division by nothing is no
	 * measurement: it goes in as unavailable, and the point stands */
	if (!isfinite(value)) {
		ss_unavailable(s, metric, "measured %g %s, not a finite number", value, unit);
		return;
	}
	struct sample *x = grow(s);
	snprintf(x->metric, sizeof(x->metric), "%s", metric);
	snprintf(x->unit, sizeof(x->unit), "%s", unit);
	x->value = value;
}

void ss_unavailable(struct sample_set *s, const char *metric, const char *fmt, ...)
{
	struct sample *x = grow(s);
	va_list ap;
	snprintf(x->metric, sizeof(x->metric), "%s", metric);
	x->unavailable = 1;
	va_start(ap, fmt);
	vsnprintf(x->reason, sizeof(x->reason), fmt, ap);
	va_end(ap);
}

void ss_attr(struct sample_set *s, const char *key, const char *fmt, ...)
{
	if (s->nattrs == s->attrs_cap) {
		size_t cap = s->attrs_cap ? s->attrs_cap * 2 : 8;
		struct attr *a = realloc(s->attrs, cap * sizeof(*a));
		if (!a)
			abort();
		s->attrs = a;
		s->attrs_cap = cap;
	}
	struct attr *a = &s->attrs[s->nattrs++];
	va_list ap;
	snprintf(a->key, sizeof(a->key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(a->value, sizeof(a->value), fmt, ap);
	va_end(ap);
}

void ss_attr_text(struct sample_set *s, const char *key, const char *text, size_t maxlen)
{
	char chunk[ATTR_TEXT_CHUNK + 1], k[48];
	size_t n = 0;
	int part = 0;
	for (size_t i = 0; i < maxlen && text[i]; i++) {
		const char *esc = text[i] == '\n' ? "\\n" : text[i] == '\\' ? "\\\\" : NULL;
		size_t w = esc ? 2 : 1;
		if (n + w > ATTR_TEXT_CHUNK) {
			chunk[n] = 0;
			snprintf(k, sizeof(k), "%.30s_text_%d", key, ++part);
			ss_attr(s, k, "%s", chunk);
			n = 0;
		}
		if (esc) {
			memcpy(chunk + n, esc, 2);
		} else {
			chunk[n] = text[i];
		}
		n += w;
	}
	if (n) {
		chunk[n] = 0;
		snprintf(k, sizeof(k), "%.30s_text_%d", key, ++part);
		ss_attr(s, k, "%s", chunk);
	}
}

void attr_text_unescape(const char *chunk, char *out, size_t outlen)
{
	size_t o = strlen(out);
	for (size_t i = 0; chunk[i] && o + 1 < outlen; i++) {
		char c = chunk[i];
		if (c == '\\' && (chunk[i + 1] == 'n' || chunk[i + 1] == '\\'))
			c = chunk[++i] == 'n' ? '\n' : '\\';
		out[o++] = c;
	}
	out[o] = 0;
}

const struct attr *ss_attr_find(const struct sample_set *s, const char *key)
{
	for (size_t i = 0; i < s->nattrs; i++)
		if (!strcmp(s->attrs[i].key, key))
			return &s->attrs[i];
	return NULL;
}

const struct sample *ss_find(const struct sample_set *s, const char *metric)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].metric, metric))
			return &s->v[i];
	return NULL;
}

void ss_free(struct sample_set *s)
{
	free(s->v);
	free(s->attrs);
	memset(s, 0, sizeof(*s));
}

int ss_parse_line(struct sample_set *s, const char *line, const char *prefix)
{
	char name[64], unit[24], rest[240];
	double v;
	char full[96];
	if (sscanf(line, "metric %63s %lf %23s", name, &v, unit) == 3) {
		snprintf(full, sizeof(full), "%s%s", prefix, name);
		ss_add(s, full, v, unit);
		return 0;
	}
	if (sscanf(line, "unavailable %63s %239[^\n]", name, rest) == 2) {
		snprintf(full, sizeof(full), "%s%s", prefix, name);
		ss_unavailable(s, full, "%s", rest);
		return 0;
	}
	if (sscanf(line, "info %47s %207[^\n]", name, rest) == 2) {
		ss_attr(s, name, "%s", rest);
		return 0;
	}
	return 1;
}
