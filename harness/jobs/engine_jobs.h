/* What `rmapbench engine ...` does, one file per concern: what the
 * subcommands share (engine_common.c), walkcost (engine_walkcost.c), the
 * checked runs: scenarios, replays and the fuzzer (engine_check.c), and
 * threads (engine_threads.c). The flags and the dispatch are the CLI's
 * (harness/cli/cmd_engine.c); the nightly runs walkcost as a part. */
#ifndef RMAPBENCH_ENGINE_JOBS_H
#define RMAPBENCH_ENGINE_JOBS_H

#include "engine_common.h"

int engine_walkcost(const char *db_path, struct eargs *a);
int engine_scenario(const char *db_path, struct eargs *a);
int engine_replay(const char *db_path, struct eargs *a);
int engine_fuzz(const char *db_path, struct eargs *a);
int engine_threads(const char *db_path, struct eargs *a);

#endif
