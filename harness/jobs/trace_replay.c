/* `replay FILE` as a job (trace_replay.h):
 *
 *   replay_designs  the trace loaded once, every design's whole pass
 *   design_row      a design's line of the table, its run recorded
 *   replay_figure   the designs' walks side by side
 */
#include "trace_replay.h"
#include "engine_common.h"
#include "run_here.h"
#include "replay.h"
#include "report.h"
#include "trace_file.h"
#include "util.h"

#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

struct replay_job {
	const struct trace_replay_opts *o;
	const struct rmap_ops *vs[RMAP_MAX_VARIANTS];
	int nv;
	char name[64], workload[80], command[400];
	struct replay_result first, res[RMAP_MAX_VARIANTS];
	int64_t runs[RMAP_MAX_VARIANTS];
	struct replay_bar bars[RMAP_MAX_VARIANTS];
	char faults[RMAP_MAX_VARIANTS][400];
};

/* One whole pass of the trace on ops (census after census_op); the
 * errors said with FILE:LINE and the design. */
static int pass(struct trace_file *f, const char *path, const struct rmap_ops *ops, uint64_t census_op, bool check,
		size_t max_bytes, struct replay_result *res, char *err, size_t errlen)
{
	char msg[300];
	trace_file_rewind(f);
	/* a recorded trace (format 2) is strict; a written one refuses an
	 * operation of a process that is not there, as `engine replay` does */
	struct replay_opts o = { .census_op = census_op, .strict = f->format >= 2, .check = check,
				 .max_bytes = max_bytes };
	if (replay_run(ops, trace_file_next, f, &o, res, msg, sizeof(msg)) < 0) {
		snprintf(err, errlen, "%s:%s (design %s)", path, msg, ops->name);
		return -1;
	}
	return 0;
}

static double per(double n, double d)
{
	return d > 0 ? n / d : 0;
}

static void census_samples(struct sample_set *ss, const char *prefix, const struct replay_census *c, const char *why)
{
	char m[64];
	static const char *const names[] = { "rmap_walks", "rmap_vmas_per_walk", "page_referenced_vmas_per_walk" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(m, sizeof(m), "%s%s", prefix, names[i]);
		if (!c->taken || !c->walk.walks) {
			ss_unavailable(ss, m, "%s", why);
			continue;
		}
		double v = i == 0 ? (double)c->walk.walks
			 : i == 1 ? per((double)c->walk.vmas_visited, (double)c->walk.walks)
				  : per((double)c->referenced.vmas_visited, (double)c->referenced.walks);
		ss_add(ss, m, v, i == 0 ? "walks" : "vmas/walk");
	}
}

static void samples(struct sample_set *ss, const struct replay_result *r, bool check)
{
	const struct replay_census *p = &r->peak;
	if (check)
		ss_add(ss, "invariant_faults", (double)r->faults, "faults");
	ss_add(ss, "replay_ops", (double)r->ops, "ops");
	ss_add(ss, "replay_refused_ops", (double)r->refused, "ops");
	ss_add(ss, "processes_max", (double)r->procs_max, "processes");
	ss_add(ss, "replay_s", r->replay_s, "s");
	census_samples(ss, "", p, "the trace maps no anonymous page at any moment");
	census_samples(ss, "end_", &r->end, "nothing mapped at the end: every process exited");
	if (p->taken) {
		ss_add(ss, "anon_pages", (double)p->pages, "pages");
		ss_add(ss, "vmas", (double)p->vmas, "vmas");
		ss_add(ss, "anon_vmas", (double)p->anon_vmas, "anon_vmas");
		ss_add(ss, "anon_vma_chains", (double)p->avcs, "avcs");
		ss_add(ss, "longest_chain", (double)p->longest_chain, "entries");
		ss_add(ss, "bytes_per_page", per((double)(p->bytes_pages + p->bytes_ptes), (double)p->pages), "bytes");
	}
}

/* The workload's name: --name, else the file's without .trace(.gz). */
static int trace_name(const char *given, const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	snprintf(name, len, "%s", given ? given : base ? base + 1 : path);
	if (!given) {
		char *dot = strstr(name, ".trace");
		if (dot && dot != name)
			*dot = 0;
	}
	if (!*name || strlen(name) > 48 || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
						    strlen(name)) {
		rb_error("replay: '%s' is not a name for the workload (letters, digits, '.', '_', '-', at most 48): "
			 "give --name",
			 name);
		return -1;
	}
	return 0;
}

/* The designs, the name and the pass of each over the trace loaded once:
 * 0, or 2 having said why (nothing recorded). */
static int replay_designs(struct replay_job *j)
{
	const struct trace_replay_opts *o = j->o;
	char err[600];
	if (!strcmp(o->variant, "all")) {
		for (int i = 0; rmap_variants[i]; i++)
			j->vs[j->nv++] = rmap_variants[i];
	} else if (!(j->vs[j->nv++] = engine_variant(o->variant))) {
		return 2;
	}
	if (trace_name(o->name, o->path, j->name, sizeof(j->name)) < 0)
		return 2;
	snprintf(j->workload, sizeof(j->workload), "replay:%s", j->name);
	if (o->max_mib < 16) {
		rb_error("replay: --max-mib %lu: at least 16 (MiB)", o->max_mib);
		return 2;
	}
	/* every fork allocates a pte table and every exit frees it: past
	 * glibc's mmap threshold (128 KiB, a few thousand ptes) each is an
	 * mmap, page faults and a munmap, more system time than replay */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	struct trace_file tf;
	if (trace_file_load(&tf, o->path, TRACE_FILE_WHOLE, err, sizeof(err)) < 0) {
		rb_error("replay: %s", err);
		return 2;
	}
	/* every design replays the whole trace before anything is recorded:
	 * the designs are compared on the same operations, or not at all; the
	 * first pass finds the peak and every error of the trace */
	size_t budget = (size_t)o->max_mib << 20;
	int rc = pass(&tf, o->path, j->vs[0], 0, false, budget, &j->first, err, sizeof(err));
	for (int i = 0; i < j->nv && rc == 0; i++)
		rc = pass(&tf, o->path, j->vs[i], j->first.peak_op, o->check, budget, &j->res[i], err, sizeof(err));
	snprintf(j->command, sizeof(j->command), "%s", tf.command);
	trace_file_free(&tf);
	if (rc < 0) {
		rb_error("replay: %s: nothing recorded", err);
		return 2;
	}
	return 0;
}

/* Design i's line and run: 0, or -1 when recording failed. */
static int design_row(struct replay_job *j, int i, const char *db_path, const struct eargs *a)
{
	const struct rmap_ops *v = j->vs[i];
	const struct replay_result *r = &j->res[i];
	const struct replay_census *p = &r->peak;
	struct sample_set ss = { 0 };
	samples(&ss, r, j->o->check);
	ss_attr(&ss, "trace", "%s", j->o->path);
	if (j->command[0])
		ss_attr(&ss, "trace_command", "%.200s", j->command);
	double walk = per((double)p->walk.vmas_visited, (double)p->walk.walks);
	double ref = per((double)p->referenced.vmas_visited, (double)p->referenced.walks);
	printf("%-8s %12.3f %12.3f %14llu %10llu %10llu %8llu %10.1f %9.3f", v->name, walk, ref,
	       (unsigned long long)p->walk.walks, (unsigned long long)p->anon_vmas, (unsigned long long)p->avcs,
	       (unsigned long long)p->longest_chain, per((double)(p->bytes_pages + p->bytes_ptes), (double)p->pages),
	       r->replay_s);
	if (j->o->check)
		printf(" %8zu", r->faults);
	printf("\n");
	j->faults[i][0] = 0;
	if (r->faults)
		snprintf(j->faults[i], sizeof(j->faults[i]), "%s: %zu faults, the first %s after operation %llu: %s%s",
			 v->name, r->faults, r->first_fault.kind, (unsigned long long)r->first_fault.op,
			 r->first_fault.detail, v->has_known_bugs ? " (a bug of 2010 this design keeps)" : "");
	long users = 1;
	int rc = engine_record_points(db_path, a, v->name, j->workload, &users, &ss, 1, j->command, &j->runs[i]);
	ss_free(&ss);
	snprintf(j->bars[i].design, sizeof(j->bars[i].design), "%s", v->name);
	snprintf(j->bars[i].release, sizeof(j->bars[i].release), "%.*s", (int)strcspn(v->release, ":"), v->release);
	j->bars[i].walk = walk;
	j->bars[i].referenced = ref;
	return rc < 0 ? -1 : 0;
}

static void replay_figure(const struct replay_job *j, const char *db_path)
{
	char dir[PATH_MAX], png[PATH_MAX + 40], shown[PATH_MAX + 80], title[200], fig[80];
	snprintf(fig, sizeof(fig), "replay-%s-%lld", j->name, (long long)j->runs[0]);
	snprintf(title, sizeof(title), "%s on the designs: VMAs a walk visits at the trace's peak (%llu pages)", j->name,
		 (unsigned long long)j->first.peak_pages);
	if (results_dir(db_path, fig, dir, sizeof(dir)) == 0 &&
	    report_replay(j->bars, j->nv, title, dir, png, sizeof(png)) == 0)
		printf("figure: %s\n", rb_path_shown(png, shown, sizeof(shown)));
	else
		rb_warn("replay: no figure (gnuplot missing?)");
}

int trace_replay(const struct trace_replay_opts *o, const char *db_path)
{
	static struct replay_job j;
	memset(&j, 0, sizeof(j));
	j.o = o;
	int rc = replay_designs(&j);
	if (rc)
		return rc;
	printf("replay %s: %llu operations, at most %lu processes at once, the peak %llu pages after operation %llu\n",
	       o->path, (unsigned long long)j.first.ops, j.first.procs_max, (unsigned long long)j.first.peak_pages,
	       (unsigned long long)j.first.peak_op);
	if (j.command[0])
		printf("  recorded from: %s\n", j.command);
	struct eargs a = { .no_db = o->no_db, .config_name = "replay" };
	snprintf(a.cmdline, sizeof(a.cmdline), "replay %s --variant %s", o->path, o->variant);
	printf("\n%-8s %12s %12s %14s %10s %10s %8s %10s %9s%s\n", "design", "VMAs/walk", "referenced", "walks",
	       "anon_vmas", "chains", "longest", "bytes/page", "replay s", o->check ? "   faults" : "");
	bool unexpected = false;
	for (int i = 0; i < j.nv; i++) {
		if (design_row(&j, i, db_path, &a) < 0)
			rc = 1;
		unexpected |= j.res[i].faults && !j.vs[i]->has_known_bugs;
	}
	for (int i = 0; i < j.nv && !rc; i++)
		if (j.faults[i][0])
			printf("%s\n", j.faults[i]);
	if (!rc && unexpected) {
		rb_error("replay: a design without known bugs broke an invariant on this trace (above): a bug of the "
			 "engine, or of the recording");
		rc = 3;
	}
	if (rc == 1 || o->no_db)
		return rc;
	printf("\nruns %lld to %lld (compare them with `rmapbench compare RUN RUN`)\n", (long long)j.runs[0],
	       (long long)j.runs[j.nv - 1]);
	replay_figure(&j, db_path);
	return rc;
}
