/* Kernel text symbols (ksyms.h). */
#include "ksyms.h"
#include "folded.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KSYMS_MAX_BYTES (64u << 20)
#define KSYMS_LINE 512

static int by_addr(const void *x, const void *y)
{
	const struct ksym *a = x, *b = y;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* "ADDR TYPE NAME[\t[MODULE]]": a text symbol into k. */
static void parse_line(struct ksyms *k, int *cap, const char *line)
{
	char *end;
	unsigned long long addr = strtoull(line, &end, 16);
	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return;
	char type = end[1];
	if (!strchr("tTwW", type))
		return;
	const char *name = end + 3;
	char raw[KSYMS_LINE], safe[FOLDED_MAX_NAME];
	snprintf(raw, sizeof(raw), "%.*s", (int)strcspn(name, "\t \n"), name);
	if (!raw[0])
		return;
	folded_name(safe, sizeof(safe), raw);
	if (k->n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		struct ksym *v = realloc(k->v, (size_t)*cap * sizeof(*v));
		if (!v)
			abort();
		k->v = v;
	}
	k->v[k->n].addr = addr;
	k->v[k->n].name = strdup(safe);
	if (!k->v[k->n].name)
		abort();
	k->n++;
}

int ksyms_parse(struct ksyms *k, const char *text, size_t len)
{
	int cap = 0;
	memset(k, 0, sizeof(*k));
	for (size_t off = 0; off < len;) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) : len - off;
		char line[KSYMS_LINE];
		size_t keep = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
		memcpy(line, text + off, keep);
		line[keep] = 0;
		if (!memchr(line, 0, keep)) /* a NUL inside: not a line */
			parse_line(k, &cap, line);
		off += n + 1;
	}
	if (k->n)
		qsort(k->v, (size_t)k->n, sizeof(*k->v), by_addr);
	return k->n ? 0 : -1;
}

int ksyms_load(struct ksyms *k, const char *path, char *why, size_t len)
{
	size_t n;
	memset(k, 0, sizeof(*k));
	char *text = rb_read_file_max(path, KSYMS_MAX_BYTES, &n);
	if (!text) {
		snprintf(why, len, "cannot read %s: no kernel symbols to name the frames", path);
		return -1;
	}
	int rc = ksyms_parse(k, text, n);
	free(text);
	if (rc < 0) {
		snprintf(why, len, "%s lists no text symbols (a kernel without CONFIG_KALLSYMS)", path);
		return -1;
	}
	if (k->v[k->n - 1].addr == 0) {
		snprintf(why, len, "%s hides the addresses (kernel.kptr_restrict): the frames cannot be named", path);
		ksyms_free(k);
		return -1;
	}
	return 0;
}

const char *ksyms_name(const struct ksyms *k, uint64_t ip)
{
	int lo = 0, hi = k->n - 1, best = -1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (k->v[mid].addr <= ip) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best < 0 ? NULL : k->v[best].name;
}

void ksyms_free(struct ksyms *k)
{
	for (int i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof(*k));
}
