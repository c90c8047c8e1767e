/* A run's kept profile stacks (profiles.h). */
#include "profiles.h"

#include <stdlib.h>
#include <string.h>

int db_profile_attrs_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_profile_attr *), void *arg)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h,
			       "SELECT p.workload, p.users, p.id, a.key GLOB 'profile_stack_*', "
			       "CAST(substr(a.key, 1 + length(rtrim(a.key, '0123456789'))) AS INTEGER), a.value "
			       "FROM point_attrs a JOIN points p ON p.id = a.point_id "
			       "WHERE p.run_id = ?1 AND p.status = 'done' AND (a.key GLOB 'profile_sym_[0-9]*' OR "
			       "a.key GLOB 'profile_stack_[0-9]*') "
			       "ORDER BY p.workload, p.users, p.id, 4, 5",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	int rc, stop = 0;
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_profile_attr a = { (const char *)sqlite3_column_text(st, 0), (long)sqlite3_column_int64(st, 1),
					     sqlite3_column_int64(st, 2), sqlite3_column_int(st, 3),
					     (long)sqlite3_column_int64(st, 4), (const char *)sqlite3_column_text(st, 5) };
		if (!a.workload || !a.value)
			continue;
		stop = fn(arg, &a);
	}
	sqlite3_finalize(st);
	return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}
