/* The job mix: AIM7's weighted workfile reduced to the tasks of the
 * fork+COW load, written "cow:3,fork:2,private:2,compute:1,file:1". */
#ifndef RMAPBENCH_MIX_H
#define RMAPBENCH_MIX_H

#include <stddef.h>

struct wl_ctx;
struct wl_slot;

enum task { TASK_COW, TASK_FORK, TASK_PRIVATE, TASK_COMPUTE, TASK_FILE };
#define NR_TASKS 5

struct mix {
	unsigned weight[NR_TASKS];
	unsigned total;
};

int mix_parse(struct mix *m, const char *text, char *err, size_t errlen);
enum task mix_pick(const struct mix *m, unsigned *rnd);

/* aim7's task bodies, shared with the workloads built on it. */
int aim7_setup(struct wl_ctx *ctx);
int aim7_task(struct wl_ctx *ctx, struct wl_slot *slot, unsigned *rnd, enum task t);

#endif
