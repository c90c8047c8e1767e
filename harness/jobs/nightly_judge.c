/* A night's runs judged (nightly_judge.h). */
#include "nightly_judge.h"
#include "query.h"
#include "util.h"
#include "verdicts.h"

#include <stdio.h>
#include <string.h>

/* The run p is judged against: 1 with *base, 0 none yet, 2 an error (said). */
static int baseline_of(struct db *db, const struct night_run *p, const char *explicit, int64_t *base, int *pinned)
{
	if (explicit)
		return night_baseline_given(db, explicit, p->suite, base) ? 2 : 1;
	/* a vm run's baseline booted the same kernel; an engine run's design
	 * is what the comparison is about, so any will do */
	int found = db_baseline_find(db, p->suite, p->fingerprint, p->kernel_label[0] ? p->kernel_label : NULL, p->run,
				     base, pinned);
	if (found < 0) {
		rb_error("nightly: %s: %s", db->path, db_errmsg(db));
		return 2;
	}
	return found ? 1 : 0;
}

int judge_part(struct db *db, struct night_run *p, const char *explicit, struct side *a, struct side *b, struct comparison *c)
{
	int64_t base = 0;
	int pinned = 0;
	if (!night_run_facts(db, p)) {
		rb_error("nightly: run %lld is not in %s", (long long)p->run, db->path);
		return 2;
	}
	int found = baseline_of(db, p, explicit, &base, &pinned);
	if (found == 2)
		return 2;
	snprintf(b->label, sizeof(b->label), "%s run %lld (tonight)", p->suite, (long long)p->run);
	if (!found) {
		snprintf(c->unjudged, sizeof(c->unjudged),
			 "no baseline yet on this machine: run %lld is the first (./run.sh baseline set %lld pins one)",
			 (long long)p->run, (long long)p->run);
		printf("nightly %s: %s\n", p->suite, c->unjudged);
		return -1;
	}
	*a = (struct side){ .db = db, .runs = { base }, .nruns = 1 };
	b->db = db;
	b->runs[0] = p->run;
	b->nruns = 1;
	snprintf(a->label, sizeof(a->label), "%s run %lld (%s)", p->suite, (long long)base,
		 explicit ? "--baseline" : pinned ? "pinned baseline" : "last nightly");
	if (compare_sides(a, b, c) < 0)
		return 2;
	printf("\nnightly %s\n", p->suite);
	verdicts_print_brief(c, a, b); /* every row: the report, --junit, --markdown */
	struct night_run bp = { .run = base };
	night_run_facts(db, &bp);
	if (strcmp(p->status, "done") && !strcmp(bp.status, "done")) {
		printf("REGRESSION: run %lld ended %s where its baseline, run %lld, was done\n", (long long)p->run,
		       p->status, (long long)base);
		return 1;
	}
	return c->counts[V_REGRESSION] ? 1 : 0;
}

int judge_control(struct db *db, const struct config *cfg, const int64_t runs[2], struct side *a, struct side *b, struct comparison *c)
{
	const char *labels[2] = { cfg->reference_kernels[0], cfg->reference_kernels[1] };
	*a = (struct side){ .db = db, .runs = { runs[0] }, .nruns = 1 };
	*b = (struct side){ .db = db, .runs = { runs[1] }, .nruns = 1 };
	snprintf(a->label, sizeof(a->label), "reference %s run %lld (good)", labels[0], (long long)runs[0]);
	snprintf(b->label, sizeof(b->label), "reference %s run %lld (known bad)", labels[1],
		 (long long)runs[1]);
	if (compare_sides(a, b, c) < 0)
		return 2;
	snprintf(c->expect, sizeof(c->expect), "%s", cfg->reference_metric);
	printf("\nnightly reference (positive control: its regressions are expected)\n");
	verdicts_print_brief(c, a, b);
	if (!comparison_regressed_on(c, c->expect)) {
		printf("nightly: the harness did not see the known regression: %s against %s shows no regression of "
		       "%s\n",
		       labels[1], labels[0], c->expect);
		return 2;
	}
	return 0;
}
