/* What the `rmapbench engine` subcommands share (engine_common.c): their
 * parsed flags, the usage, the design named by --variant, JSON output
 * and recording. Below every engine_*.c of harness/jobs. */
#ifndef RMAPBENCH_ENGINE_COMMON_H
#define RMAPBENCH_ENGINE_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "sample.h"

struct eargs {
	const char *variant, *name, *file, *trace_out, *until;
	unsigned long children[16], pages, ops, users; /* walkcost sweeps a list of N */
	int nchildren;
	double seconds;
	unsigned seed;
	bool json, list, differential, inject, stop_at_fault, no_db, known_as_faults;
	char cmdline[512];
	const char *config_name, *tag; /* of the recorded runs: "engine" and none unless set (the nightly) */
	int64_t first_run, last_run;   /* what walkcost recorded */
};

/* Prints msg (if any) and the usage; 2. */
int engine_usage(const char *msg);
/* The design named by --variant, or NULL with the error said. */
const struct rmap_ops *engine_variant(const char *name);
/* Ends a JSON object opened by the caller: every sample as a field. */
void engine_json_close(const struct sample_set *ss);
/* One engine-target run, a point per users value (unless --no-db); its id
 * into *run_out. */
int engine_record_points(const char *db_path, const struct eargs *a, const char *variant, const char *workload,
			 const long *users, const struct sample_set *ss, int n, const char *note, int64_t *run_out);
int engine_record(const char *db_path, const struct eargs *a, const char *variant, const char *workload, long users,
		  const struct sample_set *ss, const char *note);

#endif
