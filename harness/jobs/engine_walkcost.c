/* engine walkcost: N children each mapping P pages COWed from one parent,
 * both walks of every page counted; a run per design with a point per N,
 * and for a sweep, figures of VMAs per walk against N. */
#include "engine_jobs.h"
#include "engine_common.h"
#include "db.h"
#include "run_here.h"
#include "report.h"
#include "util.h"
#include "walkcost.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static void walkcost_figures(const char *db_path, const struct eargs *a, const int64_t *runs,
			     const char *const *labels, int n)
{
	struct db db;
	char err[1200], dir[PATH_MAX];
	if (db_open(db_path, &db, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return;
	}
	char name[64];
	snprintf(name, sizeof(name), "walkcost-%lld-%lld", (long long)runs[0], (long long)runs[n - 1]);
	if (results_dir(db_path, name, dir, sizeof(dir)) == 0) {
		static const char *const figs[] = { "rmap_vmas_per_walk", "page_referenced_vmas_per_walk" };
		for (size_t i = 0; i < ARRAY_SIZE(figs); i++) {
			char png[PATH_MAX + 40], title[200], shown[PATH_MAX + 80];
			snprintf(title, sizeof(title), "walkcost: %s against N children, %lu pages each (runs %lld-%lld)",
				 figs[i], a->pages, (long long)runs[0], (long long)runs[n - 1]);
			if (report_runs(&db, runs, labels, n, figs[i], title, dir, "walkcost", png, sizeof(png)) == 0)
				fprintf(a->json ? stderr : stdout, "figure: %s\n", rb_path_shown(png, shown, sizeof(shown)));
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
		engine_json_close(ss);
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
int engine_walkcost(const char *db_path, struct eargs *a)
{
	const struct rmap_ops *vs[RMAP_MAX_VARIANTS];
	int nv = 0;
	if (a->variant && !strcmp(a->variant, "all")) {
		for (int i = 0; rmap_variants[i]; i++)
			vs[nv++] = rmap_variants[i];
	} else if (!(vs[nv++] = engine_variant(a->variant))) {
		return 2;
	}
	if (!a->nchildren || !a->pages)
		return engine_usage("walkcost needs --children N[,N...] and --pages P, all at least 1");
	for (int k = 0; k < a->nchildren; k++)
		if (!a->children[k])
			return engine_usage("walkcost: --children values must be at least 1");
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
		if (!rc && engine_record_points(db_path, a, vs[v]->name, "walkcost", users, ss, a->nchildren, NULL, &runs[v]))
			rc = 1;
		if (!rc) {
			a->first_run = a->first_run ? a->first_run : runs[v];
			a->last_run = runs[v];
		}
		for (int k = 0; k < a->nchildren; k++)
			ss_free(&ss[k]);
	}
	if (!rc && !a->no_db && nv * a->nchildren > 1)
		walkcost_figures(db_path, a, runs, labels, nv);
	return rc;
}
