/* Recording a run made here: who/what/where (rmapbench's revision, this
 * host, its kernel) filled once for every kind of run, and whole runs of
 * already measured points (the engine's and the benchmarks'). */
#ifndef RMAPBENCH_RECORD_H
#define RMAPBENCH_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/utsname.h>

#include "db.h"

struct run_here {
	char host[256];
	struct utsname u;
	struct run_meta m;   /* points into this struct: keep it alive while used */
};

const char *rb_revision(void);
/* m.revision, m.host and m.kernel_release of this machine; the rest given. */
void run_here_init(struct run_here *h, const char *target, const char *variant, const char *config_name,
		   const char *config_text);

struct recorded_point {
	const char *workload;
	long users;
	const char *params;
	const struct sample_set *ss;
};

/* One run of n done points, status 'done' (note may be NULL); its id into
 * *run. -1 with a one-line error printed. */
int run_record(const char *db_path, const struct run_meta *m, const struct recorded_point *p, int n, const char *note,
	       int64_t *run);

#endif
