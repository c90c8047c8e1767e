/* A nightly run's facts (night_run.h). */
#include "night_run.h"
#include "query.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static int run_facts(void *arg, const struct db_run *r)
{
	struct night_run *p = arg;
	snprintf(p->suite, sizeof(p->suite), "%s", r->config_name ? r->config_name : "");
	snprintf(p->fingerprint, sizeof(p->fingerprint), "%s", r->fingerprint ? r->fingerprint : "");
	snprintf(p->kernel_label, sizeof(p->kernel_label), "%s", r->kernel_label ? r->kernel_label : "");
	snprintf(p->status, sizeof(p->status), "%s", r->status ? r->status : "");
	snprintf(p->target, sizeof(p->target), "%s", r->target ? r->target : "");
	return 0;
}

int night_run_facts(struct db *db, struct night_run *r)
{
	return db_run_get(db, r->run, run_facts, r) == 1;
}

int night_baseline_given(struct db *db, const char *spec, const char *suite, int64_t *run)
{
	struct night_run bp = { 0 };
	if (db_run_resolve(db, spec, &bp.run) != 1 || !night_run_facts(db, &bp)) {
		rb_error("nightly: --baseline %s: no such run in %s", spec, db->path);
		return 2;
	}
	if (strcmp(bp.suite, suite)) {
		rb_error("nightly: --baseline %s is a run of suite '%s', not '%s'", spec, bp.suite, suite);
		return 2;
	}
	*run = bp.run;
	return 0;
}
