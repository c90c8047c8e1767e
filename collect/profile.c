/* A profile's samples folded and reported (profile.h). */
#include "profile.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int profile_parse_record(const unsigned char *rec, size_t len, struct prof_sample *s)
{
	struct perf_header {
		uint32_t type;
		uint16_t misc, size;
	} h;
	if (len < sizeof(h))
		return -1;
	memcpy(&h, rec, sizeof(h));
	if (h.type != 9 /* PERF_RECORD_SAMPLE */)
		return 0;
	/* u32 pid, tid; u64 time; u64 nr; u64 ips[nr] */
	if (len < sizeof(h) + 24 || h.size > len)
		return -1;
	uint64_t nr;
	memcpy(&s->pid, rec + sizeof(h), 4);
	memcpy(&s->time, rec + sizeof(h) + 8, 8);
	memcpy(&nr, rec + sizeof(h) + 16, 8);
	size_t room = (len - sizeof(h) - 24) / 8;
	if (nr > room || nr > PROFILE_MAX_CHAIN)
		return -1;
	s->nr = 0;
	for (uint64_t i = 0; i < nr && s->nr < FOLDED_MAX_FRAMES; i++) {
		uint64_t ip;
		memcpy(&ip, rec + sizeof(h) + 24 + 8 * i, 8);
		if (ip >= (uint64_t)-4095) /* PERF_CONTEXT_KERNEL, _USER, ...: markers */
			continue;
		s->ips[s->nr++] = ip;
	}
	return 1;
}

void profile_fold(struct folded *f, const struct ksyms *k, const struct prof_sample *s)
{
	const char *frames[FOLDED_MAX_FRAMES];
	int n = 0;
	for (int i = s->nr - 1; i >= 0; i--) { /* root first */
		const char *name = ksyms_name(k, s->ips[i]);
		frames[n++] = name ? name : "[unknown]";
	}
	if (!n)
		frames[n++] = "[user]";
	folded_add(f, frames, n, 1);
}

void profile_metric(char *buf, size_t len, const char *kind, const char *name)
{
	snprintf(buf, len, "profile.%s.%s", kind, name);
}

/* The stored stacks as their symbols' indexes. */
static void stack_attrs(struct sample_set *ss, const struct folded *f)
{
	char **syms = NULL;
	int nsyms = 0, stored = f->n < PROFILE_STORED ? f->n : PROFILE_STORED;
	double dropped = f->dropped;
	for (int i = 0; i < stored; i++) {
		char value[208], key[48], buf[FOLDED_MAX_FRAMES * FOLDED_MAX_NAME + 1];
		int n = snprintf(value, sizeof(value), "%.0f ", f->v[i].count);
		snprintf(buf, sizeof(buf), "%s", f->v[i].frames);
		bool whole = true;
		for (char *save = NULL, *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
			int j = 0;
			while (j < nsyms && strcmp(syms[j], t))
				j++;
			if (j == nsyms) {
				char **v = realloc(syms, (size_t)(nsyms + 1) * sizeof(*v));
				if (!v || !(v[nsyms] = strdup(t)))
					abort();
				syms = v;
				snprintf(key, sizeof(key), "profile_sym_%d", nsyms);
				ss_attr(ss, key, "%s", syms[nsyms++]);
			}
			int w = snprintf(value + n, sizeof(value) - (size_t)n, "%s%d", value[n - 1] == ' ' ? "" : ";", j);
			if (w < 0 || (size_t)(n + w) >= sizeof(value)) {
				whole = false;
				break;
			}
			n += w;
		}
		if (!whole) { /* too deep for an attribute: counted, not kept */
			dropped += f->v[i].count;
			continue;
		}
		snprintf(key, sizeof(key), "profile_stack_%d", i);
		ss_attr(ss, key, "%s", value);
	}
	for (int i = stored; i < f->n; i++)
		dropped += f->v[i].count;
	ss_attr(ss, "profile_stacks", "%d stored of %d, %.0f samples not stored", stored, f->n, dropped);
	for (int i = 0; i < nsyms; i++)
		free(syms[i]);
	free(syms);
}

void profile_rows(struct sample_set *ss, struct folded *f)
{
	ss_add(ss, "profile_samples", f->total, "samples");
	struct folded_share *sh = NULL;
	int n = folded_shares(f, &sh);
	for (int i = 0, rows = 0; i < n && rows < PROFILE_ROWS; i++) {
		if (sh[i].children < PROFILE_ROW_MIN_PCT)
			break;
		char metric[64];
		profile_metric(metric, sizeof(metric), "children", sh[i].name);
		ss_add(ss, metric, sh[i].children, "pct");
		profile_metric(metric, sizeof(metric), "self", sh[i].name);
		ss_add(ss, metric, sh[i].self, "pct");
		rows++;
	}
	free(sh);
	folded_sort(f);
	stack_attrs(ss, f);
}
