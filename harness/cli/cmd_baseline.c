/* `rmapbench baseline set RUN | show | clear [--config FILE]`: the pinned
 * baseline of a nightly suite on this machine. */
#include "commands.h"
#include "flags.h"
#include "nightly.h"
#include "query.h"
#include "run_here.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int cmd_baseline(int argc, char **argv, const char *db_path)
{
	const char *config = NIGHTLY_DEFAULT_CONFIG, *pos[2];
	int npos;
	const struct flag flags[] = {
		{ "--config", FLAG_STRING, &config, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("baseline", flags, argc, argv, pos, 2, &npos) < 0)
		return 2;
	if (!npos || (!strcmp(pos[0], "set") ? npos != 2 : npos != 1) ||
	    (strcmp(pos[0], "set") && strcmp(pos[0], "show") && strcmp(pos[0], "clear"))) {
		rb_error("baseline: set RUN | show | clear [--config FILE]");
		return 2;
	}
	struct config cfg;
	char err[600], fp[320];
	if (config_load_set(&cfg, config, NULL, 0, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	char suite[96];
	snprintf(suite, sizeof(suite), "%s", cfg.name);
	config_free(&cfg);
	machine_fingerprint(fp, sizeof(fp));
	struct db db;
	if (db_open_said(db_path, &db) < 0)
		return 2;
	int rc = 0;
	if (!strcmp(pos[0], "set")) {
		int64_t id;
		struct night_run p = { 0 };
		if (db_run_resolve(&db, pos[1], &id) != 1) {
			rb_error("baseline set: no run '%s' in %s", pos[1], db_path);
			rc = 2;
		} else if (p.run = id, night_run_facts(&db, &p), strcmp(p.suite, suite)) {
			rb_error("baseline set: run %lld is of suite '%s', not '%s' (--config)", (long long)id, p.suite, suite);
			rc = 2;
		} else if (db_baseline_set(&db, suite, fp, id) < 0) {
			rb_error("baseline set: %s: %s", db_path, db_errmsg(&db));
			rc = 2;
		} else {
			printf("baseline of %s on this machine: run %lld\n", suite, (long long)id);
		}
	} else if (!strcmp(pos[0], "show")) {
		int64_t id;
		int pinned = 0;
		int found = db_baseline_find(&db, suite, fp, NULL, INT64_MAX, &id, &pinned);
		if (found > 0)
			printf("baseline of %s on this machine: run %lld (%s)\n", suite, (long long)id,
			       pinned ? "pinned" : "the last nightly that ended done");
		else
			printf("baseline of %s on this machine: none yet\n", suite);
	} else {
		int cleared = db_baseline_clear(&db, suite, fp);
		printf("baseline of %s on this machine: %s\n", suite,
		       cleared > 0 ? "unpinned (the last nightly that ended done is used)" : "none was pinned");
	}
	db_close(&db);
	return rc;
}
