/* `rmapbench --help`: every command on a line, then the global options.
 * Each command's own --help says the rest. */
#include "usage.h"

void usage(FILE *f)
{
	fputs("usage: rmapbench [--db PATH] [--set KEY=VALUE]... COMMAND [ARGS]\n"
	      "\n"
	      "commands:\n"
	      "  run CONFIG                   run a suite (configs/*.conf) and record it\n"
	      "  runs                         list the recorded runs\n"
	      "  show RUN                     statistics per workload, users and metric (RUN: id or last)\n"
	      "  export RUN --format csv|json the tidy rows of a run\n"
	      "  report RUN                   remake a run's figures and HTML report\n"
	      "  workloads                    list the workload generators\n"
	      "  targets                      list the targets a config's target key names\n"
	      "  engine walkcost|scenario|replay|fuzz ...  the userspace rmap engine (engine --help)\n"
	      "  record [--out F] -- CMD ...  trace what CMD's process tree does to anonymous memory\n"
	      "  replay FILE [--variant all]  a recorded trace on the designs side by side (replay --help)\n"
	      "  bench [FILTER | --variant V] [--repetitions R] [--min-time S]  microbenchmarks into the database\n"
	      "  kernel list|fetch|build|run ...  kernels for the vm target (kernel --help)\n"
	      "  compare-kernels A B [--config FILE]  the same sweep on two kernels, and the differences\n"
	      "  bisect GOOD BAD --tree PATH --config FILE [--metric M]  the commit that regressed (bisect --help)\n"
	      "  compare A B [--junit F] [--markdown F]  verdicts between runs (ID, last, last~N, DB:ID; A1,A2 for sets)\n"
	      "  nightly [--config F] [--set K=V] [--baseline RUN] [--junit F] [--markdown F]  the suite against its baseline\n"
	      "  baseline set RUN | show | clear [--config F]  the nightly's pinned baseline on this machine\n"
	      "  trend [SUITE] [--metric M] [--nights N] [--json] [--check]  a suite's nights and their change points\n"
	      "  db merge OTHER.db...         other databases' runs into this one, each once (by uuid)\n"
	      "  calibrate-walk [--families N,..]  an rmap walk's cost by its length on this kernel, for target engine\n"
	      "  paper [--json] [--config F]  the 2010 crossover on the engine: legacy, avc and modern\n"
	      "\n"
	      "options:\n"
	      "  --db PATH        results database (default $RMAPBENCH_DB or results/rmapbench.db)\n"
	      "  --set KEY=VALUE  override a config key for this run (repeatable)\n"
	      "  --shard I/N      run only point k where k mod N = I - 1 (a CI matrix; db merge joins them)\n"
	      "  --dry-run        print the plan of points; run and record nothing\n",
	      f);
}
