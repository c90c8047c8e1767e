/* `rmapbench db merge OTHER.db...`: the runs of other databases (other
 * machines, CI shards) into this one, each once, by its uuid. */
#include "commands.h"
#include "db.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

int cmd_db(int argc, char **argv, const char *db_path)
{
	if (argc < 2 || strcmp(argv[0], "merge")) {
		rb_error("db: merge OTHER.db [OTHER.db...]");
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
