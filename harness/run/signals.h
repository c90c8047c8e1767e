/* Ctrl-C once: finish the current point, then stop (run 'aborted').
 * Ctrl-C twice, SIGTERM or SIGHUP: kill the current point now. Either way
 * every child is reaped and what was recorded stays. */
#ifndef RMAPBENCH_SIGNALS_H
#define RMAPBENCH_SIGNALS_H

#include <signal.h>

extern volatile sig_atomic_t rb_interrupted; /* stop after this point */
extern volatile sig_atomic_t rb_stop_now;    /* kill this point */

void rb_signals_install(void);

#endif
