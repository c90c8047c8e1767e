/* `rmapbench run CONFIG`: the suite, then its figures and report. Its
 * --set, --shard and --dry-run are the global options (main.c). */
#include "commands.h"
#include "run_here.h"
#include "suite.h"
#include "suite_job.h"
#include "util.h"

#include <stdio.h>

int cmd_run(const char *path, const char **sets, int nsets, const char *shard, bool dry_run, const char *db_path)
{
	struct config cfg;
	char err[600];
	if (config_load_set(&cfg, path, sets, nsets, err, sizeof(err)) < 0 ||
	    (shard && suite_parse_shard(&cfg, shard, err, sizeof(err)) < 0)) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	struct db db;
	int rc = 1;
	if (dry_run) {
		suite_job_plan(&cfg);
		rc = 0;
	} else if (db_open_said(db_path, &db) == 0) {
		rc = suite_job(&cfg, &db, NULL);
		db_close(&db);
	}
	config_free(&cfg);
	return rc;
}
