/* What the reading commands share (reading.h). */
#include "reading.h"
#include "escape.h"
#include "query.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int reading_open(const char *path, struct db *db)
{
	char err[1200], rerr[1200];
	if (db_open(path, db, err, sizeof(err)) == 0)
		return 0;
	if (*path && access(path, F_OK) == 0 && db_open_readonly(path, db, rerr, sizeof(rerr)) == 0)
		return 0;
	rb_error("%s", err);
	return -1;
}

int reading_failed(struct db *db)
{
	rb_error("%s: %s", db->path, db_errmsg(db));
	db_close(db);
	return 1;
}

/* RUN is an id or "last"; -1 (said) when there is no such run. */
static int64_t resolve_run(struct db *db, const char *run)
{
	int64_t id = -1;
	int found = db_run_resolve(db, run, &id);
	if (found < 0)
		rb_error("%s: %s", db->path, db_errmsg(db));
	else if (!found && strcmp(run, "last") && (atoll(run) <= 0 || strspn(run, "0123456789") != strlen(run)))
		rb_error("run '%s': expected a run id or 'last'", run);
	else if (!found)
		rb_error("%s: no run '%s'", db->path, run);
	return found > 0 ? id : -1;
}

int reading_open_run(const char *db_path, const char *run, struct db *db, int64_t *id)
{
	if (reading_open(db_path, db) < 0)
		return -1;
	*id = resolve_run(db, run);
	if (*id < 0) {
		db_close(db);
		return -1;
	}
	return 0;
}

const char *text_or_dash(const char *s)
{
	return s ? s : "-";
}

const char *shown(const char *s)
{
	static char bufs[12][512];
	static int next;
	char *b = bufs[next++ % 12];
	term_safe_copy(b, sizeof(bufs[0]), text_or_dash(s));
	return b;
}
