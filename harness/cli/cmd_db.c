/* `rmapbench db merge OTHER.db...`: the runs of other databases (other
 * machines, CI shards) into this one, each once, by its uuid; and
 * `db prune`: retention that never drops a baseline. */
#include "commands.h"
#include "db.h"
#include "flags.h"
#include "util.h"

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* `db prune --keep-days D --keep-last N` */
static int prune(int argc, char **argv, const char *db_path)
{
	unsigned long days = 0, last = 0;
	bool have_days = false;
	const char *pos[1];
	int npos;
	char days_s[32] = "";
	const char *days_arg = NULL;
	const struct flag flags[] = {
		{ "--keep-days", FLAG_STRING, &days_arg, 0, 0, NULL },
		{ "--keep-last", FLAG_ULONG, &last, 1000000, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("db prune", flags, argc, argv, pos, 0, &npos) < 0)
		return 2;
	if (days_arg) {
		char *end;
		days = strtoul(days_arg, &end, 10);
		have_days = *days_arg && !*end && days_arg[0] != '-';
		snprintf(days_s, sizeof(days_s), "%s", days_arg);
	}
	if (!have_days) {
		rb_error("db prune: --keep-days D is required (a whole number of days; --keep-last N keeps the newest too)");
		return 2;
	}
	struct db db;
	char err[1200];
	if (db_open(db_path, &db, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return 2;
	}
	int deleted;
	int rc = db_prune(&db, (double)days, (long)last, &deleted, err, sizeof(err));
	db_close(&db);
	if (rc < 0) {
		rb_error("db prune: %s", err);
		return 2;
	}
	printf("%s: %d runs older than %s days pruned (baselines, the runs kept nightlies are judged against and the "
	       "%lu newest kept)\n",
	       db_path, deleted, days_s, last);
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
	if (db_open(db_path, &db, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return 2;
	}
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		int added;
		if (!strcmp(argv[i], db_path)) {
			rb_error("db merge: %s is the database itself", argv[i]);
			rc = 2;
			break;
		}
		if (db_merge(&db, argv[i], &added, err, sizeof(err)) < 0) {
			rb_error("db merge: %s", err);
			rc = 2;
			break;
		}
		printf("%s: %d runs added to %s\n", argv[i], added, db_path);
	}
	db_close(&db);
	return rc;
}
