/* The stacks a run's points kept with their profile (collect/profile.h:
 * profile_sym_N names, profile_stack_N "COUNT i;j;k" by those names'
 * indexes), read back per point in order, each point's names before its
 * stacks. Values are outside bytes (a database from anywhere): the
 * caller parses them with lib/folded.c's bounded reader. */
#ifndef RMAPBENCH_PROFILES_H
#define RMAPBENCH_PROFILES_H

#include <stdint.h>

#include "db.h"

struct db_profile_attr {
	const char *workload;
	long users;
	int64_t point;
	int is_stack; /* else a name */
	long index;   /* N of the key */
	const char *value;
};
/* fn for every profile name and stack of run's done points; -1 on a
 * database error, else 0 or fn's non-zero. */
int db_profile_attrs_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_profile_attr *), void *arg);

#endif
