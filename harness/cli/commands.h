/* The CLI's subcommands; each returns the process exit status. */
#ifndef RMAPBENCH_COMMANDS_H
#define RMAPBENCH_COMMANDS_H

#include "config.h"
#include "db.h"

#include <stdint.h>

/* run_out (may be NULL) gets the run's id, 0 if none was recorded. */
int cmd_run(struct config *cfg, const char *db_path, int64_t *run_out);
int cmd_runs(const char *db_path);
int cmd_show(const char *db_path, const char *run);
int cmd_export(const char *db_path, const char *run, const char *format);
int cmd_report(const char *db_path, const char *run);
int cmd_engine(int argc, char **argv, const char *db_path);
int cmd_bench(int argc, char **argv, const char *db_path);
/* `kernel list|fetch|build|run` and `compare-kernels A B`. */
int cmd_kernel(int argc, char **argv, const char *db_path);
int cmd_compare_kernels(int argc, char **argv, const char *db_path);
/* config in a guest of kernel label (a recipe's label, git:PATH@REV or an
 * image), a run tagged tag when not NULL, its id into *run (0: none was
 * recorded); 0, or the run's exit status. */
int kernels_run_one(const char *config, const char *const *sets, int nsets, const char *label, const char *tag,
		    const char *db_path, int64_t *run);
/* `bisect GOOD BAD --tree PATH --config FILE`: 0 a first bad commit
 * named, 1 an error, 2 usage or nothing to bisect, 130 interrupted. */
int cmd_bisect(int argc, char **argv, const char *db_path);
/* config in a guest of each of labels (A, B), each a run (tagged tag when
 * not NULL) into runs[]; 0, or the exit status of the run that failed
 * (a run not recorded leaves its id 0). */
int kernels_run_pair(const char *config, const char *const *sets, int nsets, const char *const labels[2],
		     const char *tag, const char *db_path, int64_t runs[2]);
/* `record -- CMD` (the recorder's status, CMD's) and `replay FILE`. */
int cmd_record(int argc, char **argv, const char *db_path);
int cmd_replay(int argc, char **argv, const char *db_path);
/* `nightly` and `baseline set|show|clear`: 0, 1 a regression, 2 usage. */
int cmd_nightly(int argc, char **argv, const char *db_path);
int cmd_baseline(int argc, char **argv, const char *db_path);
/* `calibrate-walk`: one VMA's rmap walk cost on the running kernel. */
int cmd_calibrate_walk(int argc, char **argv, const char *db_path);
/* `paper`: the 2010 crossover on the engine, for legacy, avc and modern. */
int cmd_paper(int argc, char **argv, const char *db_path);
/* `db merge OTHER.db...` */
int cmd_db(int argc, char **argv, const char *db_path);
/* `compare A B`: verdicts; 0 none worse, 1 a regression, 2 usage/data. */
int cmd_compare(int argc, char **argv, const char *db_path);
/* Two runs' crossovers and their figure, in DB's compare-A-B folder
 * (harness/report/crossover_report.c). */
void crossover_report_runs(struct db *db, const char *db_path, const int64_t runs[2], const char *labels[2]);

#endif
