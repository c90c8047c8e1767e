/* Coroutines (ucontext to enter, _setjmp/_longjmp to switch, no system
 * call a switch): a user's body runs on a stack of its own and
 * gives the simulator back control after each operation, so that the
 * workload's loop stays the one the native runtime runs. */
#ifndef RMAPBENCH_CORO_H
#define RMAPBENCH_CORO_H

#include <stdbool.h>
#include <stddef.h>

struct coro;

/* fn runs on [stack, stack + size) from the first coro_resume; the
 * caller owns the stack (one mapping for all users: one VMA, not
 * thousands). NULL when out of memory. */
struct coro *coro_create(void (*fn)(void *), void *arg, void *stack, size_t size);
/* Runs co until it yields or returns; true while it has more to run. */
bool coro_resume(struct coro *co);
/* From inside a coroutine: back to whoever resumed it. */
void coro_yield(void);
void coro_free(struct coro *co);

#endif
