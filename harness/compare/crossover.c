#include "crossover.h"
#include "query.h"

#include <stdio.h>
#include <string.h>

struct find_state {
	struct crossover *out;
	int cap, n;
	long prev_users;
	double prev_y;
};

static int crossover_point(void *arg, const struct db_users_stat *p)
{
	struct find_state *f = arg;
	struct crossover *c = f->n ? &f->out[f->n - 1] : NULL;
	if (!c || strcmp(c->workload, p->workload ? p->workload : "")) {
		if (f->n == f->cap)
			return 1;
		c = &f->out[f->n++];
		memset(c, 0, sizeof(*c));
		snprintf(c->workload, sizeof(c->workload), "%s", p->workload ? p->workload : "");
		f->prev_users = 0;
	}
	double y = p->mean;
	c->max_users = p->users;
	c->last_jpm_user = y;
	if (!c->reached && y <= CROSSOVER_JPM_PER_USER) {
		c->reached = 1;
		c->first_users = p->users;
		c->at_users = (double)p->users;
		/* between the last point above the line and this one */
		c->from_first = !f->prev_users;
		c->above_users = f->prev_users;
		if (f->prev_users && f->prev_y > y)
			c->at_users = (double)f->prev_users + (f->prev_y - CROSSOVER_JPM_PER_USER) / (f->prev_y - y) *
								      (double)(p->users - f->prev_users);
	}
	f->prev_users = p->users;
	f->prev_y = y;
	return 0;
}

int crossover_find(struct db *db, int64_t run, struct crossover *out, int cap)
{
	struct find_state f = { out, cap, 0, 0, 0 };
	if (db_metric_by_users(db, run, "jobs_per_min_per_user", crossover_point, &f) < 0)
		return -1;
	return f.n;
}

void crossover_describe(const struct crossover *c, char *buf, size_t len)
{
	if (c->reached && c->from_first)
		snprintf(buf, len, "%s: at or below %.0f jobs/min per user from the first point (%ld users)", c->workload,
			 CROSSOVER_JPM_PER_USER, c->first_users);
	else if (c->reached)
		snprintf(buf, len, "%s: crossed at %.0f users (first point at or below %.0f jobs/min per user: %ld users)",
			 c->workload, c->at_users, CROSSOVER_JPM_PER_USER, c->first_users);
	else
		snprintf(buf, len, "%s: not reached up to %ld users (%.1f jobs/min per user there)", c->workload,
			 c->max_users, c->last_jpm_user);
}

long crossover_nearest_point(const struct crossover *c)
{
	if (c->above_users > 0 && c->at_users - (double)c->above_users < (double)c->first_users - c->at_users)
		return c->above_users;
	return c->first_users;
}
