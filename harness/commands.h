/* The CLI's subcommands; each returns the process exit status. */
#ifndef RMAPBENCH_COMMANDS_H
#define RMAPBENCH_COMMANDS_H

#include "config.h"

int cmd_run(struct config *cfg, const char *db_path);
int cmd_runs(const char *db_path);
int cmd_show(const char *db_path, const char *run);
int cmd_export(const char *db_path, const char *run, const char *format);
int cmd_report(const char *db_path, const char *run);
int cmd_engine(int argc, char **argv, const char *db_path);
int cmd_bench(int argc, char **argv, const char *db_path);

#endif
