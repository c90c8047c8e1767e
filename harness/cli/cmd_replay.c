/* `rmapbench replay FILE [--variant all|V] [--name NAME] [--no-db]`: a
 * recorded program (rmapbench record) on the designs side by side. Each
 * design a run (target engine, workload replay:NAME, users 1: a replay
 * is one point, and two recordings of a program must meet in compare
 * whatever their process counts) with its walks and VMAs per walk at the
 * trace's peak and at its end, anon_vmas, chains, the longest chain,
 * bytes per page and the replay's own time; one figure of the designs.
 *
 * The trace is hostile input, read once and bounded (trace_file.h); the
 * replay has a memory budget (--max-mib). Every design replays the whole
 * trace before anything is recorded: an error names FILE:LINE and the
 * design, and records nothing. */
#include "commands.h"
#include "engine_common.h"
#include "flags.h"
#include "record.h"
#include "replay.h"
#include "report.h"
#include "trace_file.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fits a CI runner beside its other work; the million-operation trace of
 * docs/record-replay.md takes a hundredth of it. */
#define REPLAY_DEFAULT_MAX_MIB 2048

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

static int usage(void)
{
	fputs("usage: rmapbench replay FILE [--variant all|legacy|avc-rc|avc|modern] [--name NAME] [--check]\n"
	      "                      [--max-mib N] [--no-db]\n"
	      "  a trace from `rmapbench record` (or written by hand) on the designs side by side: a run per\n"
	      "  design (target engine, workload replay:NAME), walks counted at the trace's peak and end.\n"
	      "  --check: the invariant checker after every operation, its faults counted per design (exit 3\n"
	      "  when a design without known bugs faults; avc-rc's are 2010's).\n"
	      "  --max-mib N: the replay's memory budget (default 2048): past it, an error naming the design and\n"
	      "  the line, and nothing recorded.\n",
	      stderr);
	return 2;
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

int cmd_replay(int argc, char **argv, const char *db_path)
{
	const char *pos[1], *variant = "all", *given = NULL;
	bool no_db = false, check = false;
	unsigned long max_mib = REPLAY_DEFAULT_MAX_MIB;
	int npos = 0;
	const struct flag flags[] = {
		{ "--variant", FLAG_STRING, &variant, 0, 0, NULL },
		{ "--name", FLAG_STRING, &given, 0, 0, NULL },
		{ "--no-db", FLAG_BOOL, &no_db, 0, 0, NULL },
		{ "--check", FLAG_BOOL, &check, 0, 0, NULL },
		{ "--max-mib", FLAG_ULONG, &max_mib, 1UL << 20, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_help(argc, argv)) {
		usage();
		return 0;
	}
	if (flags_parse("replay", flags, argc, argv, pos, 1, &npos) < 0 || npos != 1)
		return usage();
	const struct rmap_ops *vs[RMAP_MAX_VARIANTS];
	int nv = 0;
	if (!strcmp(variant, "all")) {
		for (int i = 0; rmap_variants[i]; i++)
			vs[nv++] = rmap_variants[i];
	} else if (!(vs[nv++] = engine_variant(variant))) {
		return 2;
	}
	char name[64], workload[80], err[600];
	if (trace_name(given, pos[0], name, sizeof(name)) < 0)
		return 2;
	snprintf(workload, sizeof(workload), "replay:%s", name);
	/* every fork allocates a pte table and every exit frees it: past
	 * glibc's mmap threshold (128 KiB, a few thousand ptes) each is an
	 * mmap, page faults and a munmap, more system time than replay */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	if (max_mib < 16) {
		rb_error("replay: --max-mib %lu: at least 16 (MiB)", max_mib);
		return 2;
	}
	struct trace_file tf;
	if (trace_file_load(&tf, pos[0], err, sizeof(err)) < 0) {
		rb_error("replay: %s", err);
		return 2;
	}
	/* every design replays the whole trace before anything is recorded:
	 * the designs are compared on the same operations, or not at all; the
	 * first pass finds the peak and every error of the trace */
	struct replay_result first, res[RMAP_MAX_VARIANTS];
	size_t budget = (size_t)max_mib << 20;
	int rc = pass(&tf, pos[0], vs[0], 0, false, budget, &first, err, sizeof(err));
	for (int i = 0; i < nv && rc == 0; i++)
		rc = pass(&tf, pos[0], vs[i], first.peak_op, check, budget, &res[i], err, sizeof(err));
	trace_file_free(&tf);
	if (rc < 0) {
		rb_error("replay: %s: nothing recorded", err);
		return 2;
	}
	const char *command = tf.command;
	printf("replay %s: %llu operations, at most %lu processes at once, the peak %llu pages after operation %llu\n",
	       pos[0], (unsigned long long)first.ops, first.procs_max, (unsigned long long)first.peak_pages,
	       (unsigned long long)first.peak_op);
	if (command[0])
		printf("  recorded from: %s\n", command);
	struct eargs a = { .no_db = no_db, .config_name = "replay" };
	snprintf(a.cmdline, sizeof(a.cmdline), "replay %s --variant %s", pos[0], variant);
	int64_t runs[RMAP_MAX_VARIANTS] = { 0 };
	struct replay_bar bars[RMAP_MAX_VARIANTS];
	printf("\n%-8s %12s %12s %14s %10s %10s %8s %10s %9s%s\n", "design", "VMAs/walk", "referenced", "walks",
	       "anon_vmas", "chains", "longest", "bytes/page", "replay s", check ? "   faults" : "");
	char faults[RMAP_MAX_VARIANTS][400];
	bool unexpected = false;
	for (int i = 0; i < nv; i++) {
		faults[i][0] = 0;
		struct sample_set ss = { 0 };
		samples(&ss, &res[i], check);
		ss_attr(&ss, "trace", "%s", pos[0]);
		if (command[0])
			ss_attr(&ss, "trace_command", "%.200s", command);
		const struct replay_census *p = &res[i].peak;
		double walk = per((double)p->walk.vmas_visited, (double)p->walk.walks);
		double ref = per((double)p->referenced.vmas_visited, (double)p->referenced.walks);
		printf("%-8s %12.3f %12.3f %14llu %10llu %10llu %8llu %10.1f %9.3f", vs[i]->name, walk, ref,
		       (unsigned long long)p->walk.walks, (unsigned long long)p->anon_vmas, (unsigned long long)p->avcs,
		       (unsigned long long)p->longest_chain,
		       per((double)(p->bytes_pages + p->bytes_ptes), (double)p->pages), res[i].replay_s);
		if (check)
			printf(" %8zu", res[i].faults);
		printf("\n");
		if (res[i].faults) {
			const struct fault *f = &res[i].first_fault;
			snprintf(faults[i], sizeof(faults[i]), "%s: %zu faults, the first %s after operation %llu: %s%s",
				 vs[i]->name, res[i].faults, f->kind, (unsigned long long)f->op, f->detail,
				 vs[i]->has_known_bugs ? " (a bug of 2010 this design keeps)" : "");
			unexpected |= !vs[i]->has_known_bugs;
		}
		long users = 1;
		if (engine_record_points(db_path, &a, vs[i]->name, workload, &users, &ss, 1, command, &runs[i]) < 0)
			rc = 1;
		ss_free(&ss);
		snprintf(bars[i].design, sizeof(bars[i].design), "%s", vs[i]->name);
		snprintf(bars[i].release, sizeof(bars[i].release), "%.*s", (int)strcspn(vs[i]->release, ":"),
			 vs[i]->release);
		bars[i].walk = walk;
		bars[i].referenced = ref;
	}
	for (int i = 0; i < nv && !rc; i++)
		if (faults[i][0])
			printf("%s\n", faults[i]);
	if (!rc && unexpected) {
		rb_error("replay: a design without known bugs broke an invariant on this trace (above): a bug of the "
			 "engine, or of the recording");
		rc = 3;
	}
	if (rc == 1 || no_db)
		return rc;
	printf("\nruns %lld to %lld (compare them with `rmapbench compare RUN RUN`)\n", (long long)runs[0],
	       (long long)runs[nv - 1]);
	char dir[PATH_MAX], png[PATH_MAX + 40], shown[PATH_MAX + 80], title[200], fig[80];
	snprintf(fig, sizeof(fig), "replay-%s-%lld", name, (long long)runs[0]);
	snprintf(title, sizeof(title), "%s on the designs: VMAs a walk visits at the trace's peak (%llu pages)", name,
		 (unsigned long long)first.peak_pages);
	if (results_dir(db_path, fig, dir, sizeof(dir)) == 0 && report_replay(bars, nv, title, dir, png, sizeof(png)) == 0)
		printf("figure: %s\n", rb_path_shown(png, shown, sizeof(shown)));
	else
		rb_warn("replay: no figure (gnuplot missing?)");
	return rc;
}
