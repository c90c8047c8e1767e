/* The nightly's parts as a table, in the order a night runs them, as the
 * targets are one (harness/run/target.h): a part says how many runs of it
 * the config asks for, plans one for --dry-run and runs one. nightly.c
 * alone reads the table. */
#ifndef RMAPBENCH_NIGHTLY_PARTS_H
#define RMAPBENCH_NIGHTLY_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "db.h"

struct nightly_part {
	const char *name;
	/* the positive control: two runs, A good and B known bad, whose
	 * regression is expected; every other part is one run judged
	 * against its baseline */
	bool control;
	int (*count)(const struct config *cfg);
	void (*plan)(const struct config *cfg, int k);
	/* Run k of the part: 0 with runs[0] (and runs[1] for the control),
	 * or the night's exit status having said why (130 interrupted). */
	int (*run)(struct config *cfg, int k, struct db *db, int64_t runs[2]);
};

extern const struct nightly_part nightly_parts[];

#endif
