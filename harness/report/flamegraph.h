/* Flame graphs of a run's kept profile stacks, drawn as flamegraph.pl
 * draws them (Brendan Gregg): a frame a box, as wide as its samples,
 * its callees stacked on it, the root at the bottom, siblings in name
 * order; a box's title says its name, samples and share. A differential
 * one (B against A, as difffolded.pl and flamegraph.pl draw it) is B's
 * graph coloured by how each frame's share moved: red where B spends
 * more, blue where less. Self-contained SVG, no script. */
#ifndef RMAPBENCH_FLAMEGRAPH_H
#define RMAPBENCH_FLAMEGRAPH_H

#include <stdint.h>

#include "db.h"
#include "folded.h"

struct flame_group {
	char workload[64];
	long users;
	struct folded f; /* its points' stacks, merged */
};

/* Every (workload, users) of run with kept stacks: how many, into *out
 * (profile_groups_free frees them); -1 on a database error. */
int profile_groups(struct db *db, int64_t run, struct flame_group **out);
void profile_groups_free(struct flame_group *g, int n);
/* b's flame graph into path; with a, differential against it. 0 or -1. */
int flamegraph_svg(const struct folded *b, const struct folded *a, const char *title, const char *path);

#endif
