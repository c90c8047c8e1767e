/* A run made here: who/what/where (rmapbench's revision, this
 * host, its kernel) filled once for every kind of run, and whole runs of
 * already measured points (the engine's and the benchmarks'). */
#ifndef RMAPBENCH_RUN_HERE_H
#define RMAPBENCH_RUN_HERE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/utsname.h>

#include "db.h"

struct run_here {
	char host[256];
	char fingerprint[320];
	struct utsname u;
	struct run_meta m;   /* points into this struct: keep it alive while used */
};

const char *rb_revision(void);
/* This machine by facts that do not drift between boots (never MHz or
 * bogomips): "cpu=MODEL;cores=N;ram_gib=N;kernel=RELEASE". */
void machine_fingerprint(char *buf, size_t len);

/* Where a database's outputs go: DIR/NAME beside DIR/rmapbench.db, and
 * DIR/BASE-NAME beside any other DIR/BASE, so that two databases in one
 * folder never share a run's directory. The folder is created (not the
 * output itself). */
int results_path(const char *db_path, const char *name, char *buf, size_t len);
/* results_path, made a directory of ours (rb_own_dir): -1 said. */
int results_dir(const char *db_path, const char *name, char *buf, size_t len);
/* m.revision, m.host and m.kernel_release of this machine; the rest given. */
void run_here_init(struct run_here *h, const char *target, const char *variant, const char *config_name,
		   const char *config_text);

struct recorded_point {
	const char *workload;
	long users;
	const char *params;
	const struct sample_set *ss;
};

/* db_open with the error said on stderr: -1 when it could not be opened. */
int db_open_said(const char *db_path, struct db *db);

/* One run of n done points, status 'done' (note may be NULL); its id into
 * *run. -1 with a one-line error printed. */
int run_record(const char *db_path, const struct run_meta *m, const struct recorded_point *p, int n, const char *note,
	       int64_t *run);

#endif
