/* AIM7's crossover (re-aim-7 -x): the users at which jobs per minute per
 * user falls to 10 or below. The 2010 story is told by it: 2.6.33 crossed
 * near 9.7k users, the anon_vma_chain near 29.7k. */
#ifndef RMAPBENCH_CROSSOVER_H
#define RMAPBENCH_CROSSOVER_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

#define CROSSOVER_JPM_PER_USER 10.0

struct crossover {
	char workload[64];
	int reached;          /* a measured point at or below the line */
	int from_first;       /* already at or below it at the smallest users measured */
	long first_users;     /* the first such point's users */
	long above_users;     /* the point before it, above the line (0: none) */
	double at_users;      /* where the line is crossed, linear between the points around it */
	long max_users;       /* the largest users measured */
	double last_jpm_user; /* jobs/min per user there */
};

/* One per workload of the run that measured jobs_per_min_per_user (means
 * over repetitions, done points only); how many, or -1 on a database error. */
int crossover_find(struct db *db, int64_t run, struct crossover *out, int cap);

/* "aim7: crossed at 9,712 users (first at or below 10 jobs/min per user:
 * 10,000)" or "aim7: not reached up to 1,024 users (43.1 jobs/min per user there)". */
void crossover_describe(const struct crossover *c, char *buf, size_t len);

/* The measured point nearest the crossing: first_users or above_users. */
long crossover_nearest_point(const struct crossover *c);

#endif
