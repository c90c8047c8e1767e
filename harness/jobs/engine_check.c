/* The checked runs: a scenario of the 2010 hunt, a replayed trace, the
 * fuzzer. The invariants are checked after every operation; a fault is
 * printed with the operations that led to it, and the exit status is 3. */
#include "engine_jobs.h"
#include "engine_common.h"
#include "escape.h"
#include "fuzz.h"
#include "scenarios.h"
#include "trace.h"
#include "trace_file.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints the faults and records the run; 3 when there were any. */
static int finish_checked(const char *db_path, struct eargs *a, struct engine *e, const char *workload,
			  uint64_t ops, const char *expect)
{
	struct sample_set ss = { 0 };
	char note[300] = "";
	ss_add(&ss, "operations", (double)ops, "ops");
	ss_add(&ss, "faults", (double)e->nfaults, "faults");
	ss_add(&ss, "rmap_walks", (double)e->ws.walks, "walks");
	ss_add(&ss, "rmap_vmas_visited", (double)e->ws.vmas_visited, "vmas");
	for (size_t i = 0; i < e->nfaults && i < 8; i++) {
		char key[32];
		snprintf(key, sizeof(key), "fault_%zu", i + 1);
		ss_attr(&ss, key, "%s after op %llu: %s", e->faults[i].kind, (unsigned long long)e->faults[i].op,
			e->faults[i].detail);
	}
	if (e->nfaults)
		snprintf(note, sizeof(note), "%zu faults, first %s", e->nfaults, e->faults[0].kind);
	if (a->json) {
		printf("{\"variant\": \"%s\", \"%s\": ", e->ops->name, workload);
		json_write_string(stdout, a->name ? a->name : "");
		printf(", \"operations\": %llu, \"expected_kind\": ", (unsigned long long)ops);
		json_write_string(stdout, expect ? expect : "");
		printf(", \"expected_found\": %s", expect && engine_has_fault(e, expect) ? "true" : "false");
		printf(", \"faults\": [");
		for (size_t i = 0; i < e->nfaults; i++) {
			printf("%s{\"kind\": ", i ? ", " : "");
			json_write_string(stdout, e->faults[i].kind);
			printf(", \"after_op\": %llu, \"detail\": ", (unsigned long long)e->faults[i].op);
			json_write_string(stdout, e->faults[i].detail);
			printf("}");
		}
		printf("]}\n");
	} else {
		printf("%s on %s: %llu operations, %zu faults", a->name ? a->name : workload, e->ops->name,
		       (unsigned long long)ops, e->nfaults);
		if (expect && expect[0])
			printf("; the bug's kind, %s, %s", expect, engine_has_fault(e, expect) ? "found" : "not found");
		printf("\n");
		for (size_t i = 0; i < e->nfaults; i++)
			printf("  FAULT %s after operation %llu: %s\n", e->faults[i].kind,
			       (unsigned long long)e->faults[i].op, e->faults[i].detail);
		if (e->nfaults) {
			printf("  the operations that led there (last %u):\n", e->hist_pos < 16 ? e->hist_pos : 16);
			for (unsigned k = e->hist_pos > 16 ? e->hist_pos - 16 : 0; k < e->hist_pos; k++)
				printf("    %s\n", e->history[k % 16]);
		}
	}
	int rc = e->nfaults ? 3 : 0;
	if (engine_record(db_path, a, e->ops->name, workload, 0, &ss, note[0] ? note : NULL) < 0)
		rc = 1;
	ss_free(&ss);
	return rc;
}

int engine_scenario(const char *db_path, struct eargs *a)
{
	if (a->list) {
		for (int i = 0; scenarios[i].name; i++)
			printf("%-22s fixed by %s, %s shows %s: %s\n", scenarios[i].name, scenarios[i].fix,
			       scenarios[i].buggy, scenarios[i].kind, scenarios[i].summary);
		return 0;
	}
	if (!a->name)
		return engine_usage("scenario: NAME or --list");
	const struct scenario *sc = scenario_find(a->name);
	if (!sc) {
		rb_error("scenario '%s': unknown (engine scenario --list)", a->name);
		return 2;
	}
	const struct rmap_ops *ops = engine_variant(a->variant);
	if (!ops)
		return 2;
	struct engine e;
	struct trace_ctx t;
	char err[300];
	engine_init(&e, ops);
	trace_init(&t, &e);
	trace_run_text(&t, sc->name, sc->trace, true, err, sizeof(err));
	int rc = finish_checked(db_path, a, &e, "scenario", t.ops, sc->kind);
	engine_destroy(&e);
	return rc;
}

int engine_replay(const char *db_path, struct eargs *a)
{
	if (!a->name)
		return engine_usage("replay: FILE is required");
	const struct rmap_ops *ops = engine_variant(a->variant);
	if (!ops)
		return 2;
	/* the reader `replay` uses, bounded and gzip or text; a checked
	 * script need not end with "# end" */
	struct trace_file tf;
	char err[600], msg[300];
	if (trace_file_load(&tf, a->name, 0, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return 2;
	}
	struct engine e;
	struct trace_ctx t;
	engine_init(&e, ops);
	trace_init(&t, &e);
	unsigned long lineno;
	int bad = 0;
	for (const char *line; !bad && (line = trace_file_next(&tf, &lineno));) {
		if ((bad = trace_exec(&t, line, msg, sizeof(msg)) < 0))
			rb_error("%s:%lu: %s", a->name, lineno, msg);
		else
			engine_check(&e);
	}
	trace_file_free(&tf);
	int rc = bad ? 2 : finish_checked(db_path, a, &e, "replay", t.ops, NULL);
	engine_destroy(&e);
	return rc;
}

/* The fuzzer's options from the flags: 0, or 2 (said). */
static int fuzz_options(const struct eargs *a, struct fuzz_opts *o)
{
	if (a->differential) {
		for (int i = 0; rmap_variants[i]; i++)
			o->variants[o->nvariants++] = rmap_variants[i]; /* legacy first: the oracle */
	} else {
		const struct rmap_ops *ops = engine_variant(a->variant);
		if (!ops)
			return 2;
		o->variants[o->nvariants++] = ops;
	}
	if (a->inject && (a->differential || strcmp(o->variants[0]->name, "modern"))) {
		rb_error("--inject-enomem: only the modern design's error paths unwind (2.6.34-rc's leak by design)");
		return 2;
	}
	o->max_ops = a->ops ? a->ops : 100000;
	o->max_seconds = a->seconds;
	o->seed = a->seed ? a->seed : 1;
	o->check_each = true;
	o->inject_enomem = a->inject;
	o->stop_at_fault = a->stop_at_fault;
	o->known_as_faults = a->known_as_faults;
	o->reset_every = 2000;
	if (!a->until)
		return 0;
	if (a->differential)
		return engine_usage("--until hunts on one --variant, not --differential");
	if (!fault_kind_known(a->until)) {
		rb_error("--until %s: no such fault kind; the kinds:", a->until);
		for (const struct fault_kind *k = fault_kinds; k->name; k++)
			fprintf(stderr, "  %-18s %s\n", k->name, k->meaning);
		return 2;
	}
	o->until_kind = a->until;
	return 0;
}

static void fuzz_samples(const struct fuzz_opts *o, const struct fuzz_result *r, int i, struct sample_set *ss)
{
	ss_add(ss, "operations", (double)r->ops, "ops");
	ss_add(ss, "faults", (double)r->faults[i], "faults");
	ss_add(ss, "ops_per_s", r->seconds > 0 ? (double)r->ops / r->seconds : 0, "ops/s");
	if (i)
		ss_add(ss, "divergences", (double)r->divergences[i], "ops");
	if (r->faults[i])
		ss_attr(ss, "first_fault", "%s after %llu operations", r->first_kind[i], (unsigned long long)r->first_op[i]);
	if (o->until_kind) {
		ss_attr(ss, "until", "%s", o->until_kind);
		ss_add(ss, "other_faults", (double)r->other_faults[i], "faults");
	}
	ss_add(ss, "known_findings", (double)r->known[i], "findings");
	if (r->known[i])
		ss_attr(ss, "known_finding", "%s (engine/findings/%s.trace)", r->known_name[i], r->known_name[i]);
}

static void fuzz_say(const struct eargs *a, const struct fuzz_opts *o, const struct fuzz_result *r, int i)
{
	const char *name = o->variants[i]->name;
	if (a->json) {
		printf("{\"variant\": \"%s\", \"seed\": %u, \"operations\": %llu, \"faults\": %llu, \"first_fault\": "
		       "\"%s\", \"first_fault_op\": %llu, \"known_findings\": %llu, \"known_finding\": \"%s\", "
		       "\"until\": \"%s\", \"other_faults\": %llu, \"seconds\": %.3f}\n",
		       name, o->seed, (unsigned long long)r->ops, (unsigned long long)r->faults[i], r->first_kind[i],
		       (unsigned long long)r->first_op[i], (unsigned long long)r->known[i], r->known_name[i],
		       o->until_kind ? o->until_kind : "", (unsigned long long)r->other_faults[i], r->seconds);
	} else if (o->until_kind) {
		printf("fuzz %s: seed %u, hunting %s: %s after %llu operations in %.1f s; %llu faults of other "
		       "kinds on the way, each restarting the machine%s%s\n",
		       name, o->seed, o->until_kind, r->faults[i] ? "found" : "not found", (unsigned long long)r->ops,
		       r->seconds, (unsigned long long)r->other_faults[i], r->faults[i] && a->trace_out ? "; its trace: " : "",
		       r->faults[i] && a->trace_out ? a->trace_out : "");
	} else {
		char known[160] = "";
		if (r->known[i])
			snprintf(known, sizeof(known), "; known finding %s reached %llu times (machines restarted)",
				 r->known_name[i], (unsigned long long)r->known[i]);
		printf("fuzz %s: seed %u, %llu operations in %.1f s, %llu faults%s%s%s%s\n", name, o->seed,
		       (unsigned long long)r->ops, r->seconds, (unsigned long long)r->faults[i],
		       r->faults[i] ? " (first: " : "", r->first_kind[i], r->faults[i] ? ")" : "", known);
	}
}

int engine_fuzz(const char *db_path, struct eargs *a)
{
	struct fuzz_opts o = { 0 };
	int rc = fuzz_options(a, &o);
	if (rc)
		return rc;
	FILE *tf = NULL;
	if (a->trace_out && !(tf = fopen(a->trace_out, "w"))) {
		rb_error("--trace-out %s: %s", a->trace_out, strerror(errno));
		return 2;
	}
	o.trace_out = tf;
	struct fuzz_result r;
	fuzz_run(&o, &r);
	if (tf)
		fclose(tf);
	int any = 0;
	for (int i = 0; i < o.nvariants; i++) {
		struct sample_set ss = { 0 };
		fuzz_samples(&o, &r, i, &ss);
		fuzz_say(a, &o, &r, i);
		/* in a differential run avc-rc's faults are expected */
		if (r.faults[i] && !(a->differential && o.variants[i]->has_known_bugs))
			any = any < 0 ? any : 1;
		if (r.other_faults[i] && !o.variants[i]->has_known_bugs)
			any = any < 0 ? any : 1;
		if (engine_record(db_path, a, o.variants[i]->name, "fuzz", 0, &ss, NULL) < 0)
			any = -1;
		ss_free(&ss);
	}
	return any < 0 ? 1 : any ? 3 : 0;
}
