/* `rmapbench db merge OTHER.db...`: the runs of other databases (other
 * machines, CI shards) into this one, each once, by its uuid; and
 * `db prune`: retention that never drops a baseline. */
#include "commands.h"
#include "db.h"
#include "flags.h"
#include "run_here.h"
#include "util.h"

#include <stdio.h>
#include <limits.h>
#include <string.h>

/* `db prune --keep-days D --keep-last N` */
static int prune(int argc, char **argv, const char *db_path)
{
	unsigned long days = ULONG_MAX, last = 0;
	const char *pos[1];
	int npos;
	const struct flag flags[] = {
		{ "--keep-days", FLAG_ULONG, &days, 100000, 0, NULL },
		{ "--keep-last", FLAG_ULONG, &last, 1000000, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("db prune", flags, argc, argv, pos, 0, &npos) < 0)
		return 2;
	if (days == ULONG_MAX) {
		rb_error("db prune: --keep-days D is required (a whole number of days; --keep-last N keeps the newest too)");
		return 2;
	}
	struct db db;
	char err[1200];
	if (db_open_said(db_path, &db) < 0)
		return 2;
	int deleted;
	int rc = db_prune(&db, (double)days, (long)last, &deleted, err, sizeof(err));
	db_close(&db);
	if (rc < 0) {
		rb_error("db prune: %s", err);
		return 2;
	}
	printf("%s: %d runs older than %lu days pruned (baselines, the runs kept nightlies are judged against and the "
	       "%lu newest kept)\n",
	       db_path, deleted, days, last);
	return 0;
}

int cmd_db(int argc, char **argv, const char *db_path)
{
	if (argc >= 1 && !strcmp(argv[0], "prune"))
		return prune(argc - 1, argv + 1, db_path);
	if (argc < 2 || strcmp(argv[0], "merge")) {
		rb_error("db: merge OTHER.db [OTHER.db...] | prune --keep-days D [--keep-last N]");
		return 2;
	}
	struct db db;
	char err[1200];
	if (db_open_said(db_path, &db) < 0)
		return 2;
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		int added, pins;
		if (!strcmp(argv[i], db_path)) {
			rb_error("db merge: %s is the database itself", argv[i]);
			rc = 2;
			break;
		}
		if (db_merge(&db, argv[i], &added, &pins, err, sizeof(err)) < 0) {
			rb_error("db merge: %s", err);
			rc = 2;
			break;
		}
		printf("%s: %d runs added to %s\n", argv[i], added, db_path);
		if (pins)
			printf("%s: brought %d baseline pins: they decide what the nightly judges against "
			       "(rmapbench baseline show)\n", argv[i], pins);
	}
	db_close(&db);
	return rc;
}
