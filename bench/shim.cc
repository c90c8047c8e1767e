// The C API of bench.h over Google Benchmark: the only C++ in rmapbench.
#include "bench.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

struct bench_state {
	benchmark::State *s;
};

static benchmark::TimeUnit unit_of(enum bench_unit u)
{
	switch (u) {
	case BENCH_US: return benchmark::kMicrosecond;
	case BENCH_MS: return benchmark::kMillisecond;
	case BENCH_S: return benchmark::kSecond;
	default: return benchmark::kNanosecond;
	}
}

extern "C" int bench_register(const struct bench_def *d)
{
	if (!d || !d->name || !d->fn)
		return -1;
	bench_fn fn = d->fn;
	void *arg = d->arg;
	auto *b = benchmark::RegisterBenchmark(d->name, [fn, arg](benchmark::State &s) {
		bench_state st{ &s };
		fn(&st, arg);
	});
	if (d->dims > 0) {
		std::vector<std::vector<int64_t>> lists;
		for (int i = 0; i < d->dims && i < 2; i++)
			lists.emplace_back(d->product[i], d->product[i] + d->product_n[i]);
		b->ArgsProduct(lists);
		std::vector<std::string> names;
		for (int i = 0; i < d->dims && i < 2; i++)
			names.emplace_back(d->arg_names[i] ? d->arg_names[i] : "");
		if (d->arg_names[0])
			b->ArgNames(names);
	} else {
		for (int i = 0; i < d->nargs && i < BENCH_MAX_ARGS; i++)
			b->Arg(d->args[i]);
		if (d->arg_names[0])
			b->ArgName(d->arg_names[0]);
	}
	b->Unit(unit_of(d->unit));
	if (d->manual_time)
		b->UseManualTime();
	else if (d->real_time)
		b->UseRealTime();
	if (d->min_time_s > 0)
		b->MinTime(d->min_time_s);
	if (d->iterations > 0)
		b->Iterations(d->iterations);
	if (d->repetitions > 0)
		b->Repetitions(d->repetitions);
	return 0;
}

extern "C" void bench_add_context(const char *key, const char *value)
{
	benchmark::AddCustomContext(key, value);
}

extern "C" int bench_main(int argc, char **argv)
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}

extern "C" bool bench_keep_running(struct bench_state *st) { return st->s->KeepRunning(); }
extern "C" long bench_range(struct bench_state *st, int i) { return (long)st->s->range((size_t)i); }
extern "C" int64_t bench_iterations(struct bench_state *st) { return (int64_t)st->s->iterations(); }
extern "C" int64_t bench_max_iterations(struct bench_state *st) { return (int64_t)st->s->max_iterations; }
extern "C" void bench_pause_timing(struct bench_state *st) { st->s->PauseTiming(); }
extern "C" void bench_resume_timing(struct bench_state *st) { st->s->ResumeTiming(); }
extern "C" void bench_set_iteration_time(struct bench_state *st, double s) { st->s->SetIterationTime(s); }
extern "C" void bench_set_label(struct bench_state *st, const char *l) { st->s->SetLabel(l); }
extern "C" void bench_set_items_processed(struct bench_state *st, int64_t n) { st->s->SetItemsProcessed(n); }
extern "C" void bench_set_bytes_processed(struct bench_state *st, int64_t n) { st->s->SetBytesProcessed(n); }
extern "C" void bench_skip_with_error(struct bench_state *st, const char *m) { st->s->SkipWithError(m); }

extern "C" void bench_counter(struct bench_state *st, const char *name, double v, enum bench_counter_kind k)
{
	benchmark::Counter::Flags f = benchmark::Counter::kDefaults;
	if (k == BENCH_COUNTER_RATE)
		f = benchmark::Counter::kIsRate;
	else if (k == BENCH_COUNTER_PER_ITERATION)
		f = benchmark::Counter::kAvgIterations;
	st->s->counters[name] = benchmark::Counter(v, f);
}
