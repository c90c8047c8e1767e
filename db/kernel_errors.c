/* The kernel errors of a run's points (kernel_errors.h). */
#include "kernel_errors.h"
#include "sample.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An attribute that holds a signature, kernel_error_1 to _99 (klog.h
 * keeps at most 16), as SQL over point_attrs a. */
#define SIGNATURE_KEY "(a.key GLOB 'kernel_error_[1-9]' OR a.key GLOB 'kernel_error_[1-9][0-9]')"

int db_kernel_errors_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_kernel_error *), void *arg)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h,
			       "SELECT p.workload, p.users, p.seq, substr(a.key, 14), a.value FROM point_attrs a "
			       "JOIN points p ON p.id = a.point_id WHERE p.run_id = ? AND " SIGNATURE_KEY
			       " ORDER BY p.seq, length(a.key), a.key",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	int rc, stop = 0;
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *w = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 4);
		char *end = NULL;
		errno = 0;
		long count = v ? strtol(v, &end, 10) : 0;
		if (!w || !v || errno || end == v || *end != ' ' || count < 0 || !end[1])
			continue;
		struct db_kernel_error e = { w, (long)sqlite3_column_int64(st, 1), sqlite3_column_int(st, 2),
					     atoi((const char *)sqlite3_column_text(st, 3)), count, end + 1 };
		stop = fn(arg, &e);
	}
	sqlite3_finalize(st);
	return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}

int db_points_with_errors(struct db *db, int64_t run, const char *const *metrics)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h,
			       "SELECT count(*) FROM points p WHERE p.run_id = ?1 AND (EXISTS (SELECT 1 FROM point_attrs a "
			       "WHERE a.point_id = p.id AND " SIGNATURE_KEY ") OR EXISTS (SELECT 1 FROM results r, "
			       "json_each(?2) m WHERE r.point_id = p.id AND r.metric = m.value AND r.value > 0))",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	char list[1024] = "[";
	for (int i = 0; metrics && metrics[i]; i++) /* our own names: no quoting needed */
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s\"%s\"", i ? "," : "", metrics[i]);
	snprintf(list + strlen(list), sizeof(list) - strlen(list), "]");
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, list, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st), n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? n : -1;
}

int db_kernel_error_text(struct db *db, int64_t run, int seq, int n, char *out, size_t len)
{
	sqlite3_stmt *st;
	char glob[48];
	snprintf(glob, sizeof(glob), "kernel_error_%d_text_*", n);
	if (sqlite3_prepare_v2(db->h,
			       "SELECT a.value FROM point_attrs a JOIN points p ON p.id = a.point_id "
			       "WHERE p.run_id = ? AND p.seq = ? AND a.key GLOB ? "
			       "ORDER BY length(a.key), a.key",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, glob, -1, SQLITE_TRANSIENT);
	int rc, found = 0;
	out[0] = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		if (v)
			attr_text_unescape(v, out, len);
		found = 1;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? found : -1;
}
