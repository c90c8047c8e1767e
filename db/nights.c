/* The nightly's history (nights.h). */
#include "nights.h"

#include <stdio.h>

/* The nights of a suite: nightly runs (never a confirmation's), bound as
 * ?1 suite, ?2 fingerprint (NULL: any), ?3 the first date (NULL: all). */
#define NIGHTS_OF(r)                                                                                        \
	r ".tag = 'nightly' AND " r ".config_name = ?1 AND (?2 IS NULL OR " r ".fingerprint = ?2) AND (?3 IS " \
	"NULL OR " r ".started_at >= ?3)"

static int prep_nights(struct db *db, const char *sql, const char *suite, const char *fingerprint, const char *since,
		       sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(*st, 1, suite, -1, SQLITE_STATIC);
	sqlite3_bind_text(*st, 2, fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_text(*st, 3, since, -1, SQLITE_STATIC);
	return 0;
}

static const char *txt(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* Steps st to its end, each row to row(); a non-zero from it stops. */
static int walk(sqlite3_stmt *st, int (*row)(sqlite3_stmt *, void *), void *arg)
{
	int rc, stop = 0;
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW)
		stop = row(st, arg);
	sqlite3_finalize(st);
	return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}

static int exec_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int db_night_flag_add(struct db *db, int64_t run, const char *workload, long users, const char *metric,
		      const char *verdict, double change)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h,
			       "INSERT INTO night_flags (run_id, workload, users, metric, verdict, change) "
			       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, workload, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, users);
	sqlite3_bind_text(st, 4, metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, verdict, -1, SQLITE_STATIC);
	if (change == change)
		sqlite3_bind_double(st, 6, change);
	return exec_done(st);
}

int db_run_set_confirms(struct db *db, int64_t run, int64_t night)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h, "UPDATE runs SET confirms = ?2 WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int64(st, 2, night);
	return exec_done(st);
}

struct cb {
	void *fn, *arg;
};

static int night_row(sqlite3_stmt *st, void *arg)
{
	struct cb *c = arg;
	struct db_night n = { sqlite3_column_int64(st, 0), txt(st, 1), txt(st, 2), txt(st, 3), txt(st, 4),
			      txt(st, 5), txt(st, 6), txt(st, 7), sqlite3_column_int(st, 8),
			      sqlite3_column_int(st, 9), sqlite3_column_int(st, 10) };
	return ((int (*)(void *, const struct db_night *))c->fn)(c->arg, &n);
}

int db_nights_each(struct db *db, const char *suite, const char *fingerprint, const char *since,
		   int (*fn)(void *, const struct db_night *), void *arg)
{
	sqlite3_stmt *st;
	if (prep_nights(db,
			"SELECT r.id, r.started_at, r.revision, coalesce(r.kernel_label, r.kernel_release, ''), "
			"r.config_text, r.fingerprint, r.status, r.verdict, "
			"(SELECT count(*) FROM night_flags f WHERE f.run_id = r.id), "
			"(SELECT count(*) FROM night_flags f WHERE f.run_id = r.id AND f.verdict = 'not confirmed'), "
			"(SELECT count(*) FROM runs c WHERE c.confirms = r.id) "
			"FROM runs r WHERE " NIGHTS_OF("r") " ORDER BY r.id",
			suite, fingerprint, since, &st) < 0)
		return -1;
	struct cb c = { (void *)fn, arg };
	return walk(st, night_row, &c);
}

static int suite_row(sqlite3_stmt *st, void *arg)
{
	struct cb *c = arg;
	const char *suite = txt(st, 0), *fp = txt(st, 1);
	return ((int (*)(void *, const char *, const char *, int))c->fn)(c->arg, suite ? suite : "", fp ? fp : "",
									 sqlite3_column_int(st, 2));
}

int db_night_suites_each(struct db *db, int (*fn)(void *, const char *suite, const char *fingerprint, int nights),
			 void *arg)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h,
			       "SELECT config_name, coalesce(fingerprint, ''), count(*) FROM runs WHERE tag = 'nightly' "
			       "GROUP BY config_name, fingerprint ORDER BY config_name, max(id)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	struct cb c = { (void *)fn, arg };
	return walk(st, suite_row, &c);
}

static int value_row(sqlite3_stmt *st, void *arg)
{
	struct cb *c = arg;
	struct db_night_value v = { sqlite3_column_int64(st, 0), txt(st, 1), txt(st, 3), txt(st, 4),
				    (long)sqlite3_column_int64(st, 2), sqlite3_column_double(st, 5) };
	if (!v.workload || !v.metric)
		return 0;
	return ((int (*)(void *, const struct db_night_value *))c->fn)(c->arg, &v);
}

int db_night_values_each(struct db *db, const char *suite, const char *fingerprint, const char *since,
			 int (*fn)(void *, const struct db_night_value *), void *arg)
{
	sqlite3_stmt *st;
	if (prep_nights(db,
			"SELECT x.run_id, p.workload, p.users, x.metric, x.unit, x.value FROM runs r "
			"JOIN results x ON x.run_id = r.id JOIN points p ON p.id = x.point_id "
			"WHERE " NIGHTS_OF("r") " AND p.status = 'done' "
			"ORDER BY p.workload, p.users, x.metric, x.run_id",
			suite, fingerprint, since, &st) < 0)
		return -1;
	struct cb c = { (void *)fn, arg };
	return walk(st, value_row, &c);
}

static int flag_row(sqlite3_stmt *st, void *arg)
{
	struct cb *c = arg;
	struct db_night_flag f = { sqlite3_column_int64(st, 0), txt(st, 1), txt(st, 3), txt(st, 4),
				   (long)sqlite3_column_int64(st, 2),
				   sqlite3_column_type(st, 5) == SQLITE_NULL ? 0 : sqlite3_column_double(st, 5) };
	if (!f.workload || !f.metric || !f.verdict)
		return 0;
	return ((int (*)(void *, const struct db_night_flag *))c->fn)(c->arg, &f);
}

int db_night_flags_each(struct db *db, const char *suite, const char *fingerprint, const char *since,
			int (*fn)(void *, const struct db_night_flag *), void *arg)
{
	sqlite3_stmt *st;
	if (prep_nights(db,
			"SELECT f.run_id, f.workload, f.users, f.metric, f.verdict, f.change FROM runs r "
			"JOIN night_flags f ON f.run_id = r.id WHERE " NIGHTS_OF("r") " ORDER BY f.run_id",
			suite, fingerprint, since, &st) < 0)
		return -1;
	struct cb c = { (void *)fn, arg };
	return walk(st, flag_row, &c);
}
