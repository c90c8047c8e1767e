/* What the commands that read the database back share (runs, show,
 * export, report): the database opened, the run a command line names,
 * and the database's text made fit for a terminal. Not a command. */
#ifndef RMAPBENCH_READING_H
#define RMAPBENCH_READING_H

#include <stdint.h>

#include "db.h"

/* Written to where it can be (a killed run found there is marked aborted,
 * an old schema migrated), else read-only: a database on a read-only
 * filesystem, or one we may not write, can still be read. -1 said. */
int reading_open(const char *path, struct db *db);
/* The database's error said, the database closed: 1. */
int reading_failed(struct db *db);
/* The database and the run (an id or "last") a command is about; -1
 * (said) when either is missing. */
int reading_open_run(const char *db_path, const char *run, struct db *db, int64_t *id);
/* s, or "-" for NULL. */
const char *text_or_dash(const char *s);
/* Text from the database on its way to a terminal: its control bytes
 * (a name that sets the title or clears the screen) as '?'. A few at a
 * time in one printf: rotating buffers. */
const char *shown(const char *s);

#endif
