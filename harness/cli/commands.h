/* The CLI's subcommands, a file each (cmd_NAME.c): flags, usage and
 * printing over a job of harness/jobs/ or a layer below; each returns the
 * process exit status. No command calls another. */
#ifndef RMAPBENCH_COMMANDS_H
#define RMAPBENCH_COMMANDS_H

#include <stdbool.h>

#include <stdint.h>

/* `run CONFIG` with the global options that apply to it (main.c). */
int cmd_run(const char *config, const char **sets, int nsets, const char *shard, bool dry_run, const char *db_path);
int cmd_runs(const char *db_path);
int cmd_show(const char *db_path, const char *run);
int cmd_export(const char *db_path, const char *run, const char *format);
int cmd_report(const char *db_path, const char *run);
/* `workloads` and `targets`: the tables a config's keys name. */
int cmd_workloads(void);
int cmd_targets(void);
int cmd_engine(int argc, char **argv, const char *db_path);
int cmd_bench(int argc, char **argv, const char *db_path);
/* `kernel list|fetch|build|run` and `compare-kernels A B`. */
int cmd_kernel(int argc, char **argv, const char *db_path);
int cmd_compare_kernels(int argc, char **argv, const char *db_path);
/* `bisect GOOD BAD --tree PATH --config FILE`: 0 a first bad commit
 * named, 1 an error, 2 usage or nothing to bisect, 130 interrupted. */
int cmd_bisect(int argc, char **argv, const char *db_path);
/* `record -- CMD` (the recorder's status, CMD's) and `replay FILE`. */
int cmd_record(int argc, char **argv, const char *db_path);
int cmd_replay(int argc, char **argv, const char *db_path);
/* `nightly` and `baseline set|show|clear`: 0, 1 a regression, 2 usage. */
int cmd_nightly(int argc, char **argv, const char *db_path);
int cmd_baseline(int argc, char **argv, const char *db_path);
/* `trend [SUITE]`: 0, 1 --check found a regression, 2 usage. */
int cmd_trend(int argc, char **argv, const char *db_path);
/* `calibrate-walk`: one VMA's rmap walk cost on the running kernel. */
int cmd_calibrate_walk(int argc, char **argv, const char *db_path);
/* `paper`: the 2010 crossover on the engine, for legacy, avc and modern. */
int cmd_paper(int argc, char **argv, const char *db_path);
/* `db merge OTHER.db...` */
int cmd_db(int argc, char **argv, const char *db_path);
/* `compare A B`: verdicts; 0 none worse, 1 a regression, 2 usage/data. */
int cmd_compare(int argc, char **argv, const char *db_path);

#endif
