#include "mix.h"
#include "workload.h"

#include <stdint.h>
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

/* floor(a / b) for b > 0 and any a */
static int64_t floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

void mix_deal(const struct mix *m, unsigned long jobs, struct mix_deck *d, unsigned *rnd)
{
	/* in units of 1/total of a job, so the fractions add up exactly */
	int64_t w = m->total, u = wl_rand(rnd) % m->total, at = 0;
	d->total = 0;
	for (int t = 0; t < NR_TASKS; t++) {
		int64_t share = (int64_t)m->weight[t] * (int64_t)jobs, from = at;
		at += share % w;
		/* one more for each point u + k x total in [from, at) */
		d->left[t] = (unsigned long)(share / w + floor_div(at - 1 - u, w) - floor_div(from - 1 - u, w));
		d->total += d->left[t];
	}
}

enum task mix_draw(const struct mix *m, struct mix_deck *d, const struct wl_ctx *ctx, unsigned *rnd)
{
	if (!d->total) /* a deal has at least one job: jobs_per_user >= 1 */
		mix_deal(m, ctx->p.duration_s > 0 ? m->total : (unsigned long)ctx->p.jobs_per_user, d, rnd);
	unsigned long r = (unsigned long)wl_rand(rnd) % d->total;
	for (int t = 0; t < NR_TASKS; t++) {
		if (r < d->left[t]) {
			d->left[t]--;
			d->total--;
			return (enum task)t;
		}
		r -= d->left[t];
	}
	return TASK_COMPUTE;
}
