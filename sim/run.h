#ifndef RMAPBENCH_SIM_RUN_H
#define RMAPBENCH_SIM_RUN_H

#include "sim.h"
#include "workload.h"

/* One point of w on the simulated machine; prints the workload protocol.
 * Returns the exit status (0, or 1 with the reason on stderr). */
int sim_run(const struct workload *w, const struct wl_params *wp, const struct sim_params *sp);

#endif
