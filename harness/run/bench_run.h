/* One recorded run of the microbenchmarks (rmapbench-bench, Google
 * Benchmark underneath): `rmapbench bench` and the nightly's engine part. */
#ifndef RMAPBENCH_BENCH_RUN_H
#define RMAPBENCH_BENCH_RUN_H

#include <stdbool.h>
#include <stdint.h>

struct bench_args {
	const char *filter;        /* Google Benchmark's --benchmark_filter; NULL: all */
	/* The engine benchmarks of one design: the run's variant, left out of
	 * the point names so that two designs' runs compare row by row. */
	const char *variant;
	unsigned long repetitions;
	double min_time_s;
	const char *config_name, *tag; /* "bench" and none unless set (the nightly) */
	bool quiet;                    /* the library's table into the run's bench.txt, not stdout */
	int64_t run;                   /* out: the run recorded */
};

/* Runs, records and fits; 0 done, 1 failed (said). */
int bench_record(const char *db_path, struct bench_args *a);

#endif
