/* `rmapbench engine ...`, one file per concern: the flags and the
 * dispatch (cmd_engine.c), what the subcommands share (engine_common.c),
 * walkcost (engine_walkcost.c), the checked runs: scenarios, replays and
 * the fuzzer (engine_check.c), and threads (engine_threads.c). */
#ifndef RMAPBENCH_CMD_ENGINE_H
#define RMAPBENCH_CMD_ENGINE_H

#include "engine_common.h"

int engine_walkcost(const char *db_path, struct eargs *a);
int engine_scenario(const char *db_path, struct eargs *a);
int engine_replay(const char *db_path, struct eargs *a);
int engine_fuzz(const char *db_path, struct eargs *a);
int engine_threads(const char *db_path, struct eargs *a);

#endif
