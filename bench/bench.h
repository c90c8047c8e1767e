/* A small C API over Google Benchmark (which has none: upstream issue
 * #592). Benchmarks are written in C against this header; bench/shim.cc is
 * the only C++ in rmapbench.
 *
 *   static void bm_walk(struct bench_state *st, void *arg)
 *   {
 *       long n = bench_range(st, 0);
 *       struct thing *t = setup(n);           // not timed: before the loop
 *       while (bench_keep_running(st))
 *           walk(t);                           // timed
 *       bench_counter(st, "vmas", n, BENCH_COUNTER_PLAIN);
 *       teardown(t);
 *   }
 *   static const struct bench_def defs[] = {
 *       { .name = "walk", .fn = bm_walk, .args = { 1, 10, 100 }, .nargs = 3 },
 *   };
 *   int main(int argc, char **argv)
 *   {
 *       bench_register(&defs[0]);
 *       return bench_main(argc, argv);         // the usual --benchmark_* flags
 *   }
 */
#ifndef RMAPBENCH_BENCH_H
#define RMAPBENCH_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bench_state;
typedef void (*bench_fn)(struct bench_state *st, void *arg);

enum bench_unit { BENCH_NS, BENCH_US, BENCH_MS, BENCH_S };

enum bench_counter_kind {
	BENCH_COUNTER_PLAIN,         /* a value, averaged over threads */
	BENCH_COUNTER_RATE,          /* value / seconds */
	BENCH_COUNTER_PER_ITERATION, /* value / iterations */
};

#define BENCH_MAX_ARGS 16

struct bench_def {
	const char *name;
	bench_fn fn;
	void *arg;
	/* One instance per value (Arg), or, when dims > 0, the product of
	 * up to two lists (ArgsProduct); arg_names name them in the output. */
	long args[BENCH_MAX_ARGS];
	int nargs;
	long product[2][BENCH_MAX_ARGS];
	int product_n[2];
	int dims;
	const char *arg_names[2];
	enum bench_unit unit;
	bool manual_time;   /* the body reports its own time: bench_set_iteration_time */
	bool real_time;     /* measure wall time, not the process CPU time */
	double min_time_s;  /* 0: the library's default */
	long iterations;    /* > 0: exactly this many */
	int repetitions;    /* 0: the --benchmark_repetitions flag decides */
};

int bench_register(const struct bench_def *def);
void bench_add_context(const char *key, const char *value);
/* Runs what the command line selects; returns the process exit status. */
int bench_main(int argc, char **argv);

bool bench_keep_running(struct bench_state *st);
long bench_range(struct bench_state *st, int index);
int64_t bench_iterations(struct bench_state *st);
/* The iterations this call of the function will run (known on entry). */
int64_t bench_max_iterations(struct bench_state *st);
void bench_pause_timing(struct bench_state *st);
void bench_resume_timing(struct bench_state *st);
void bench_set_iteration_time(struct bench_state *st, double seconds);
void bench_set_label(struct bench_state *st, const char *label);
void bench_set_items_processed(struct bench_state *st, int64_t items);
void bench_set_bytes_processed(struct bench_state *st, int64_t bytes);
void bench_counter(struct bench_state *st, const char *name, double value, enum bench_counter_kind kind);
void bench_skip_with_error(struct bench_state *st, const char *message);

#ifdef __cplusplus
}
#endif

#endif
