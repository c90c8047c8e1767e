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

/* A user's jobs as re-aim-7's driver deals them (runloop): each task its
 * share of the user's jobs, drawn without replacement, so every user runs
 * the same mix in an order of its own and none ends with more disk reads
 * or forks than another. Drawing with replacement spread a user's reads
 * binomially (from none to about 10 among 9,000 users, where the mix
 * gives 2.7), and a legacy point's IO tail, the reads left when the
 * lock lets go, was longer: 5.0% of the point against 3.9% (README). A share's fraction of a job goes to the
 * task for that fraction of the users (systematic sampling from a random
 * start): a user's jobs add up to jobs_per_user and the weights hold on
 * average, where re-aim-7 rounds each share and so changes the total. */
struct mix_deck {
	unsigned long left[NR_TASKS];
	unsigned long total;
};
void mix_deal(const struct mix *m, unsigned long jobs, struct mix_deck *d, unsigned *rnd);
/* The user's next job: from its deck of jobs_per_user, or, for a point
 * run for a duration, from decks of the mix's total weight dealt anew. */
enum task mix_draw(const struct mix *m, struct mix_deck *d, const struct wl_ctx *ctx, unsigned *rnd);

/* aim7's task bodies, shared with the workloads built on it. */
int aim7_setup(struct wl_ctx *ctx);
int aim7_task(struct wl_ctx *ctx, struct wl_slot *slot, unsigned *rnd, enum task t);

#endif
