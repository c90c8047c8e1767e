#include "crossover.h"

#include <stdio.h>
#include <string.h>

int crossover_find(struct db *db, int64_t run, struct crossover *out, int cap)
{
	sqlite3_stmt *st;
	const char *sql = "SELECT p.workload, p.users, avg(r.value) FROM results r JOIN points p ON p.id = r.point_id "
			  "WHERE r.run_id = ? AND r.metric = 'jobs_per_min_per_user' AND p.status = 'done' "
			  "GROUP BY p.workload, p.users ORDER BY p.workload, p.users";
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	int n = 0;
	struct crossover *c = NULL;
	long prev_users = 0;
	double prev_y = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *w = (const char *)sqlite3_column_text(st, 0);
		long users = sqlite3_column_int64(st, 1);
		double y = sqlite3_column_double(st, 2);
		if (!c || strcmp(c->workload, w)) {
			if (n == cap)
				break;
			c = &out[n++];
			memset(c, 0, sizeof(*c));
			snprintf(c->workload, sizeof(c->workload), "%s", w);
			prev_users = 0;
		}
		c->max_users = users;
		c->last_jpm_user = y;
		if (!c->reached && y <= CROSSOVER_JPM_PER_USER) {
			c->reached = 1;
			c->first_users = users;
			c->at_users = (double)users;
			/* between the last point above the line and this one */
			c->from_first = !prev_users;
			if (prev_users && prev_y > y)
				c->at_users = (double)prev_users + (prev_y - CROSSOVER_JPM_PER_USER) / (prev_y - y) *
									   (double)(users - prev_users);
		}
		prev_users = users;
		prev_y = y;
	}
	sqlite3_finalize(st);
	return n;
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
