/* Suites in guests of named kernels: one kernel (`kernel run`, a bisect's
 * step), two side by side (compare-kernels, the nightly's reference), and
 * what compare-kernels makes of two: verdicts, crossovers, figures. */
#ifndef RMAPBENCH_KERNEL_RUNS_H
#define RMAPBENCH_KERNEL_RUNS_H

#include <stdint.h>

#include "config.h"
#include "db.h"

/* base (a loaded config) in a guest of kernel label, a run tagged tag
 * when not NULL and no report (a bisect's step); its id into *run (0:
 * none was recorded); 0, or the run's exit status. */
int kernels_run_step(const struct config *base, const char *label, const char *tag, struct db *db, int64_t *run);
/* config in a guest of kernel label (a recipe's label, git:PATH@REV or an
 * image), a run tagged tag when not NULL, its id into *run (0: none was
 * recorded); 0, or the run's exit status. */
int kernels_run_one(const char *config, const char *const *sets, int nsets, const char *label, const char *tag,
		    struct db *db, int64_t *run);
/* config in a guest of each of labels (A, B), each a run (tagged tag when
 * not NULL) into runs[]; 0, or the exit status of the run that failed
 * (a run not recorded leaves its id 0). */
int kernels_run_pair(const char *config, const char *const *sets, int nsets, const char *const labels[2],
		     const char *tag, struct db *db, int64_t runs[2]);
struct compare_outputs {
	const char *junit, *markdown; /* the verdicts' files, or NULL */
};
/* `compare-kernels A B`: the pair, then compare's verdicts between them
 * (kernel errors first; JUnit, Markdown, B's report remade with them),
 * each kernel's crossover and a figure per headline metric. 0, 1 when B
 * regressed, else a run's failure status. */
int kernels_compare(const char *config, const char *const *sets, int nsets, const char *const labels[2],
		    const struct compare_outputs *out, struct db *db);
/* The recipes (kernels/NAME.kernel) and what the cache holds of each. */
int kernels_list(void);

#endif
