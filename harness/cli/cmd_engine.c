/* `rmapbench engine ...`: the userspace rmap engine from the command line.
 * Exit status: 0 the invariants held, 3 a fault was found (its report is
 * printed), 2 a usage error, 1 anything else (the database, a file). Every
 * command is recorded as an engine-target run. */
#include "commands.h"
#include "db.h"
#include "engine.h"
#include "escape.h"
#include "flags.h"
#include "fuzz.h"
#include "record.h"
#include "report.h"
#include "scenarios.h"
#include "threads.h"
#include "trace.h"
#include "util.h"
#include "walkcost.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct eargs {
	const char *variant, *name, *file, *trace_out, *until;
	unsigned long children[16], pages, ops, users; /* walkcost sweeps a list of N */
	int nchildren;
	double seconds;
	unsigned seed;
	bool json, list, differential, inject, stop_at_fault, no_db, known_as_faults;
	char cmdline[512];
};

static int usage(const char *msg)
{
	if (msg)
		rb_error("%s", msg);
	fputs("usage: rmapbench engine walkcost --variant V|all --children N[,N...] --pages P [--json]\n"
	      "       rmapbench engine scenario --list | NAME --variant V [--json]\n"
	      "       rmapbench engine replay FILE --variant V [--json]\n"
	      "       rmapbench engine fuzz (--variant V | --differential) [--ops N] [--seconds S] [--seed S]\n"
	      "                             [--inject-enomem] [--stop-at-fault] [--known-as-faults]\n"
	      "                             [--until KIND] [--trace-out FILE] [--json]\n"
	      "       rmapbench engine threads --variant V [--users N] [--seconds S] [--seed S] [--json]\n"
	      "variants: legacy (2.6.33), avc-rc (2.6.34-rc1), avc (2.6.34), modern (6.1)\n"
	      "exit status: 0 invariants held, 3 a fault found, 2 usage\n",
	      stderr);
	return 2;
}

static int parse_args(int argc, char **argv, struct eargs *a)
{
	size_t used = 0;
	for (int i = 0; i < argc; i++)
		used += (size_t)snprintf(a->cmdline + used, used < sizeof(a->cmdline) ? sizeof(a->cmdline) - used : 0,
					 "%s%s", i ? " " : "", argv[i]);
	unsigned long seconds = 0, seed = 0;
	const struct flag flags[] = {
		{ "--variant", FLAG_STRING, &a->variant, 0, 0, NULL },
		{ "--children", FLAG_ULIST, a->children, 1000000, ARRAY_SIZE(a->children), &a->nchildren },
		{ "--users", FLAG_ULONG, &a->users, 8, 0, NULL },
		{ "--pages", FLAG_ULONG, &a->pages, 1000000, 0, NULL },
		{ "--ops", FLAG_ULONG, &a->ops, 1UL << 40, 0, NULL },
		{ "--seconds", FLAG_ULONG, &seconds, 86400, 0, NULL },
		{ "--seed", FLAG_ULONG, &seed, 4294967295UL, 0, NULL },
		{ "--trace-out", FLAG_STRING, &a->trace_out, 0, 0, NULL },
		{ "--until", FLAG_STRING, &a->until, 0, 0, NULL },
		{ "--json", FLAG_BOOL, &a->json, 0, 0, NULL },
		{ "--list", FLAG_BOOL, &a->list, 0, 0, NULL },
		{ "--differential", FLAG_BOOL, &a->differential, 0, 0, NULL },
		{ "--inject-enomem", FLAG_BOOL, &a->inject, 0, 0, NULL },
		{ "--stop-at-fault", FLAG_BOOL, &a->stop_at_fault, 0, 0, NULL },
		{ "--known-as-faults", FLAG_BOOL, &a->known_as_faults, 0, 0, NULL },
		{ "--no-db", FLAG_BOOL, &a->no_db, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	const char *pos[1];
	int npos;
	if (flags_parse("engine", flags, argc - 1, argv + 1, pos, 1, &npos) < 0)
		return -1;
	a->name = npos ? pos[0] : NULL;
	a->seconds = (double)seconds;
	a->seed = (unsigned)seed;
	return 0;
}

static const struct rmap_ops *variant_or_usage(const char *name)
{
	if (!name) {
		usage("--variant is required");
		return NULL;
	}
	const struct rmap_ops *ops = rmap_ops_find(name);
	if (!ops) {
		char known[200] = "";
		for (int i = 0; rmap_variants[i]; i++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", i ? ", " : "",
				 rmap_variants[i]->name);
		rb_error("--variant %s: unknown (%s)", name, known);
		usage(NULL);
	}
	return ops;
}

/* Ends a JSON object opened by the caller: every sample as a field. */
static void json_samples_close(const struct sample_set *ss)
{
	for (size_t i = 0; i < ss->n; i++)
		printf(", \"%s\": %.9g", ss->v[i].metric, ss->v[i].value);
	printf("}\n");
}

/* One engine-target run, a point per users value; its id into *run_out. */
static int record_points(const char *db_path, const struct eargs *a, const char *variant, const char *workload,
			 const long *users, const struct sample_set *ss, int n, const char *note, int64_t *run_out)
{
	if (a->no_db)
		return 0;
	struct run_here here;
	struct recorded_point p[ARRAY_SIZE(a->children)];
	run_here_init(&here, "engine", variant, "engine", a->cmdline);
	for (int i = 0; i < n && i < (int)ARRAY_SIZE(p); i++)
		p[i] = (struct recorded_point){ workload, users[i], a->cmdline, &ss[i] };
	int64_t run;
	int rc = run_record(db_path, &here.m, p, n, note, &run);
	if (run_out)
		*run_out = run;
	return rc;
}

static int record(const char *db_path, const struct eargs *a, const char *variant, const char *workload, long users,
		  const struct sample_set *ss, const char *note)
{
	return record_points(db_path, a, variant, workload, &users, ss, 1, note, NULL);
}

static void walkcost_figures(const char *db_path, const struct eargs *a, const int64_t *runs,
			     const char *const *labels, int n)
{
	struct db db;
	char err[1200], dir[PATH_MAX], tmp[PATH_MAX];
	if (db_open(db_path, &db, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s", db_path);
	char *slash = strrchr(tmp, '/');
	snprintf(dir, sizeof(dir), "%s/walkcost-%lld-%lld", slash ? (*slash = 0, tmp) : ".", (long long)runs[0],
		 (long long)runs[n - 1]);
	if (rb_mkdir_p(dir) == 0) {
		static const char *const figs[] = { "rmap_vmas_per_walk", "page_referenced_vmas_per_walk" };
		for (size_t i = 0; i < ARRAY_SIZE(figs); i++) {
			char png[PATH_MAX + 40], title[200];
			snprintf(title, sizeof(title), "walkcost: %s against N children, %lu pages each (runs %lld-%lld)",
				 figs[i], a->pages, (long long)runs[0], (long long)runs[n - 1]);
			if (report_runs(&db, runs, labels, n, figs[i], title, dir, "walkcost", png, sizeof(png)) == 0)
				fprintf(a->json ? stderr : stdout, "figure: %s\n", png);
			else
				rb_warn("walkcost: no %s figure (gnuplot missing or nothing recorded)", figs[i]);
		}
	}
	db_close(&db);
}

static double per(double n, double d)
{
	return d > 0 ? n / d : 0;
}

/* One walkcost: its samples into ss, printed. -1 when the engine ran out
 * of memory. */
static int walkcost_point(const struct eargs *a, const struct rmap_ops *ops, unsigned long children,
			  struct sample_set *ss)
{
	struct walkcost w;
	if (walkcost_run(ops, children, a->pages, &w) < 0) {
		rb_error("walkcost: the engine ran out of memory building %lu x %lu pages", children, a->pages);
		return -1;
	}
	double per_walk = per(w.walk.vmas_visited, w.walk.walks);
	double scanned = per(w.walk.vmas_scanned, w.walk.walks);
	double ref = per(w.referenced.vmas_visited, w.referenced.walks);
	double bpp = per(w.bytes_pages + w.bytes_ptes, w.anon_pages);
	double vmas_chain = per(w.bytes_vmas + w.bytes_avcs + w.bytes_anon_vmas, w.vmas);
	ss_add(ss, "rmap_walks", (double)w.walk.walks, "walks");
	ss_add(ss, "rmap_vmas_visited", (double)w.walk.vmas_visited, "vmas");
	ss_add(ss, "rmap_vmas_per_walk", per_walk, "vmas/walk");
	ss_add(ss, "rmap_vmas_scanned_per_walk", scanned, "vmas/walk");
	ss_add(ss, "anon_vmas_locked", (double)w.walk.anon_vmas_locked, "locks");
	ss_add(ss, "page_referenced_walks", (double)w.referenced.walks, "walks");
	ss_add(ss, "page_referenced_vmas_visited", (double)w.referenced.vmas_visited, "vmas");
	ss_add(ss, "page_referenced_vmas_per_walk", ref, "vmas/walk");
	ss_add(ss, "anon_pages", (double)w.anon_pages, "pages");
	ss_add(ss, "anon_vmas", (double)w.anon_vmas, "anon_vmas");
	ss_add(ss, "anon_vma_chains", (double)w.avcs, "avcs");
	ss_add(ss, "bytes_per_page", bpp, "bytes");
	ss_add(ss, "bytes_per_vma_with_chains", vmas_chain, "bytes");
	ss_add(ss, "build_s", w.build_s, "s");
	ss_add(ss, "walk_s", w.walk_s, "s");
	ss_add(ss, "page_referenced_s", w.referenced_s, "s");
	ss_add(ss, "wall_s", w.wall_s, "s");
	ss_add(ss, "peak_rss_bytes", (double)w.peak_rss_bytes, "bytes");
	ss_add(ss, "lock_acquisitions", (double)w.locks.acquisitions, "acquisitions");
	ss_add(ss, "lock_contentions", (double)w.locks.contentions, "contentions");
	if (a->json) {
		printf("{\"variant\": \"%s\", \"children\": %lu, \"pages\": %lu", ops->name, children, a->pages);
		json_samples_close(ss);
	} else {
		printf("walkcost %s: %lu children x %lu pages: %llu walks visit %.3f vmas each (%.3f scanned); "
		       "page_referenced, stopping at the last mapping, visits %.3f\n",
		       ops->name, children, a->pages, (unsigned long long)w.walk.walks, per_walk, scanned, ref);
		printf("  %llu anon pages, %llu vmas, %llu anon_vmas, %llu chains; %.1f bytes/page, %.1f bytes/vma with "
		       "chains\n",
		       (unsigned long long)w.anon_pages, (unsigned long long)w.vmas, (unsigned long long)w.anon_vmas,
		       (unsigned long long)w.avcs, bpp, vmas_chain);
		printf("  build %.2f s, walk %.2f s, page_referenced %.2f s, peak RSS %.1f MiB\n", w.build_s, w.walk_s,
		       w.referenced_s,
		       (double)w.peak_rss_bytes / 1048576.0);
	}
	return 0;
}

/* One variant or all, one N or a sweep: a run per variant with a point per
 * N, and for a sweep, figures of VMAs per walk against N. */
static int cmd_walkcost(const char *db_path, struct eargs *a)
{
	const struct rmap_ops *vs[RMAP_MAX_VARIANTS];
	int nv = 0;
	if (a->variant && !strcmp(a->variant, "all")) {
		for (int i = 0; rmap_variants[i]; i++)
			vs[nv++] = rmap_variants[i];
	} else if (!(vs[nv++] = variant_or_usage(a->variant))) {
		return 2;
	}
	if (!a->nchildren || !a->pages)
		return usage("walkcost needs --children N[,N...] and --pages P, all at least 1");
	for (int k = 0; k < a->nchildren; k++)
		if (!a->children[k])
			return usage("walkcost: --children values must be at least 1");
	int64_t runs[RMAP_MAX_VARIANTS] = { 0 };
	const char *labels[RMAP_MAX_VARIANTS];
	long users[ARRAY_SIZE(a->children)];
	for (int k = 0; k < a->nchildren; k++)
		users[k] = (long)a->children[k];
	int rc = 0;
	for (int v = 0; v < nv && !rc; v++) {
		struct sample_set ss[ARRAY_SIZE(a->children)] = { 0 };
		labels[v] = vs[v]->name;
		for (int k = 0; k < a->nchildren && !rc; k++)
			if (walkcost_point(a, vs[v], a->children[k], &ss[k]) < 0)
				rc = 1;
		if (!rc && record_points(db_path, a, vs[v]->name, "walkcost", users, ss, a->nchildren, NULL, &runs[v]))
			rc = 1;
		for (int k = 0; k < a->nchildren; k++)
			ss_free(&ss[k]);
	}
	if (!rc && !a->no_db && nv * a->nchildren > 1)
		walkcost_figures(db_path, a, runs, labels, nv);
	return rc;
}

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
	if (record(db_path, a, e->ops->name, workload, 0, &ss, note[0] ? note : NULL) < 0)
		rc = 1;
	ss_free(&ss);
	return rc;
}

static int cmd_scenario(const char *db_path, struct eargs *a)
{
	if (a->list) {
		for (int i = 0; scenarios[i].name; i++)
			printf("%-22s fixed by %s, %s shows %s: %s\n", scenarios[i].name, scenarios[i].fix,
			       scenarios[i].buggy, scenarios[i].kind, scenarios[i].summary);
		return 0;
	}
	if (!a->name)
		return usage("scenario: NAME or --list");
	const struct scenario *sc = scenario_find(a->name);
	if (!sc) {
		rb_error("scenario '%s': unknown (engine scenario --list)", a->name);
		return 2;
	}
	const struct rmap_ops *ops = variant_or_usage(a->variant);
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

static int cmd_replay(const char *db_path, struct eargs *a)
{
	if (!a->name)
		return usage("replay: FILE is required");
	const struct rmap_ops *ops = variant_or_usage(a->variant);
	if (!ops)
		return 2;
	size_t len;
	char *text = rb_read_file(a->name, &len);
	if (!text) {
		rb_error("%s: %s", a->name, strerror(errno));
		return 2;
	}
	struct engine e;
	struct trace_ctx t;
	char err[400];
	engine_init(&e, ops);
	trace_init(&t, &e);
	int bad = memchr(text, 0, len) != NULL;
	if (bad)
		snprintf(err, sizeof(err), "%s: not a text file", a->name);
	else
		bad = trace_run_text(&t, a->name, text, true, err, sizeof(err)) < 0;
	free(text);
	if (bad) {
		rb_error("%s", err);
		engine_destroy(&e);
		return 2;
	}
	int rc = finish_checked(db_path, a, &e, "replay", t.ops, NULL);
	engine_destroy(&e);
	return rc;
}

static int cmd_fuzz(const char *db_path, struct eargs *a)
{
	struct fuzz_opts o = { 0 };
	if (a->differential) {
		for (int i = 0; rmap_variants[i]; i++)
			o.variants[o.nvariants++] = rmap_variants[i]; /* legacy first: the oracle */
	} else {
		const struct rmap_ops *ops = variant_or_usage(a->variant);
		if (!ops)
			return 2;
		o.variants[o.nvariants++] = ops;
	}
	if (a->inject && (a->differential || strcmp(o.variants[0]->name, "modern"))) {
		rb_error("--inject-enomem: only the modern design's error paths unwind (2.6.34-rc's leak by design)");
		return 2;
	}
	o.max_ops = a->ops ? a->ops : 100000;
	o.max_seconds = a->seconds;
	o.seed = a->seed ? a->seed : 1;
	o.check_each = true;
	o.inject_enomem = a->inject;
	o.stop_at_fault = a->stop_at_fault;
	o.known_as_faults = a->known_as_faults;
	if (a->until) {
		if (a->differential)
			return usage("--until hunts on one --variant, not --differential");
		if (!fault_kind_known(a->until)) {
			rb_error("--until %s: no such fault kind; the kinds:", a->until);
			for (const struct fault_kind *k = fault_kinds; k->name; k++)
				fprintf(stderr, "  %-18s %s\n", k->name, k->meaning);
			return 2;
		}
		o.until_kind = a->until;
	}
	o.reset_every = 2000;
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
		ss_add(&ss, "operations", (double)r.ops, "ops");
		ss_add(&ss, "faults", (double)r.faults[i], "faults");
		ss_add(&ss, "ops_per_s", r.seconds > 0 ? (double)r.ops / r.seconds : 0, "ops/s");
		if (i)
			ss_add(&ss, "divergences", (double)r.divergences[i], "ops");
		if (r.faults[i])
			ss_attr(&ss, "first_fault", "%s after %llu operations", r.first_kind[i],
				(unsigned long long)r.first_op[i]);
		if (o.until_kind) {
			ss_attr(&ss, "until", "%s", o.until_kind);
			ss_add(&ss, "other_faults", (double)r.other_faults[i], "faults");
		}
		ss_add(&ss, "known_findings", (double)r.known[i], "findings");
		if (r.known[i])
			ss_attr(&ss, "known_finding", "%s (engine/findings/%s.trace)", r.known_name[i], r.known_name[i]);
		if (a->json)
			printf("{\"variant\": \"%s\", \"seed\": %u, \"operations\": %llu, \"faults\": %llu, \"first_fault\": "
			       "\"%s\", \"first_fault_op\": %llu, \"known_findings\": %llu, \"known_finding\": \"%s\", "
			       "\"until\": \"%s\", \"other_faults\": %llu, \"seconds\": %.3f}\n",
			       o.variants[i]->name, o.seed, (unsigned long long)r.ops, (unsigned long long)r.faults[i],
			       r.first_kind[i], (unsigned long long)r.first_op[i], (unsigned long long)r.known[i],
			       r.known_name[i], o.until_kind ? o.until_kind : "", (unsigned long long)r.other_faults[i],
			       r.seconds);
		else if (o.until_kind)
			printf("fuzz %s: seed %u, hunting %s: %s after %llu operations in %.1f s; %llu faults of other "
			       "kinds on the way, each restarting the machine%s%s\n",
			       o.variants[i]->name, o.seed, o.until_kind, r.faults[i] ? "found" : "not found",
			       (unsigned long long)r.ops, r.seconds, (unsigned long long)r.other_faults[i],
			       r.faults[i] && a->trace_out ? "; its trace: " : "",
			       r.faults[i] && a->trace_out ? a->trace_out : "");
		else
		{
			char known[160] = "";
			if (r.known[i])
				snprintf(known, sizeof(known), "; known finding %s reached %llu times (machines restarted)",
					 r.known_name[i], (unsigned long long)r.known[i]);
			printf("fuzz %s: seed %u, %llu operations in %.1f s, %llu faults%s%s%s%s\n", o.variants[i]->name,
			       o.seed, (unsigned long long)r.ops, r.seconds, (unsigned long long)r.faults[i],
			       r.faults[i] ? " (first: " : "", r.first_kind[i], r.faults[i] ? ")" : "", known);
		}
		/* in a differential run avc-rc's faults are expected */
		if (r.faults[i] && !(a->differential && o.variants[i]->has_known_bugs))
			any = any < 0 ? any : 1;
		if (r.other_faults[i] && !o.variants[i]->has_known_bugs)
			any = any < 0 ? any : 1;
		if (record(db_path, a, o.variants[i]->name, "fuzz", 0, &ss, NULL) < 0)
			any = -1;
		ss_free(&ss);
	}
	return any < 0 ? 1 : any ? 3 : 0;
}

/* Users on threads and a reclaim thread on one engine: the anon_vma locks
 * contended for real, their lock_stat-like figures recorded. */
static int cmd_threads(const char *db_path, struct eargs *a)
{
	const struct rmap_ops *ops = variant_or_usage(a->variant);
	if (!ops)
		return 2;
	struct threads_opts o = { ops, a->users ? (int)a->users : 2, a->seconds > 0 ? a->seconds : 5,
				  a->seed ? a->seed : 1, a->pages ? a->pages : 32 };
	if (o.users < 1)
		return usage("--users: 1 to 8");
	if (o.pages < 2)
		return usage("--pages: at least 2");
	struct threads_result r;
	engine_threads_run(&o, &r);
	struct sample_set ss = { 0 };
	ss_add(&ss, "user_ops", (double)r.user_ops, "ops");
	ss_add(&ss, "user_ops_per_s", (double)r.user_ops / r.seconds, "ops/s");
	ss_add(&ss, "reclaim_passes", (double)r.reclaim_passes, "pages");
	ss_add(&ss, "pages_unmapped", (double)r.unmapped, "pages");
	ss_add(&ss, "rmap_walks", (double)r.ws.walks, "walks");
	ss_add(&ss, "rmap_vmas_visited", (double)r.ws.vmas_visited, "vmas");
	if (r.ws.walks)
		ss_add(&ss, "rmap_vmas_per_walk", (double)r.ws.vmas_visited / (double)r.ws.walks, "vmas/walk");
	ss_add(&ss, "lock_acquisitions", (double)r.locks.acquisitions, "acquisitions");
	ss_add(&ss, "lock_contentions", (double)r.locks.contentions, "contentions");
	ss_add(&ss, "lock_wait_ns", (double)r.locks.wait_ns, "ns");
	ss_add(&ss, "lock_hold_ns", (double)r.locks.hold_ns, "ns");
	ss_add(&ss, "faults", (double)r.faults, "faults");
	ss_add(&ss, "wall_s", r.seconds, "s");
	if (r.faults)
		ss_attr(&ss, "first_fault", "%s", r.first_fault);
	if (a->json) {
		printf("{\"variant\": \"%s\", \"users\": %d", ops->name, o.users);
		json_samples_close(&ss);
	} else {
		printf("threads %s: %d users + reclaim for %.1f s: %llu user ops, %llu walks, anon_vma locks %llu "
		       "acquired, %llu contended, %.1f ms waited; %zu faults%s%s\n",
		       ops->name, o.users, r.seconds, (unsigned long long)r.user_ops, (unsigned long long)r.ws.walks,
		       (unsigned long long)r.locks.acquisitions, (unsigned long long)r.locks.contentions,
		       (double)r.locks.wait_ns / 1e6, r.faults, r.faults ? ": " : "", r.first_fault);
	}
	int rc = record(db_path, a, ops->name, "threads", o.users, &ss, r.faults ? r.first_fault : NULL) < 0 ? 1
		 : r.faults && !ops->has_known_bugs ? 3
						    : 0;
	ss_free(&ss);
	return rc;
}

int cmd_engine(int argc, char **argv, const char *db_path)
{
	struct eargs a = { 0 };
	if (argc < 1)
		return usage("engine: a subcommand is required");
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
		usage(NULL);
		return 0;
	}
	if (parse_args(argc, argv, &a) < 0)
		return usage(NULL);
	const char *sub = argv[0];
	if (!strcmp(sub, "walkcost"))
		return cmd_walkcost(db_path, &a);
	if (!strcmp(sub, "scenario"))
		return cmd_scenario(db_path, &a);
	if (!strcmp(sub, "replay"))
		return cmd_replay(db_path, &a);
	if (!strcmp(sub, "fuzz"))
		return cmd_fuzz(db_path, &a);
	if (!strcmp(sub, "threads"))
		return cmd_threads(db_path, &a);
	rb_error("engine: unknown subcommand '%s'", sub);
	return usage(NULL);
}
