#include "mix.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const task_names[NR_TASKS] = { "cow", "fork", "private", "compute", "file" };

int mix_parse(struct mix *m, const char *text, char *err, size_t errlen)
{
	char buf[128];
	memset(m, 0, sizeof(*m));
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end;
		if (!colon) {
			snprintf(err, errlen, "'%s' is not task:weight", tok);
			return -1;
		}
		*colon = 0;
		long w = strtol(colon + 1, &end, 10);
		if (*end || end == colon + 1 || w < 0 || w > 1000) {
			snprintf(err, errlen, "weight of '%s' must be 0..1000", tok);
			return -1;
		}
		int t;
		for (t = 0; t < NR_TASKS && strcmp(task_names[t], tok); t++)
			;
		if (t == NR_TASKS) {
			snprintf(err, errlen, "unknown task '%s' (cow, fork, private, compute, file)", tok);
			return -1;
		}
		m->weight[t] = (unsigned)w;
		m->total += (unsigned)w;
	}
	if (!m->total) {
		snprintf(err, errlen, "the mix has no task with a weight");
		return -1;
	}
	return 0;
}

enum task mix_pick(const struct mix *m, unsigned *rnd)
{
	unsigned r = wl_rand(rnd) % m->total;
	for (int t = 0; t < NR_TASKS; t++) {
		if (r < m->weight[t])
			return (enum task)t;
		r -= m->weight[t];
	}
	return TASK_COMPUTE;
}
