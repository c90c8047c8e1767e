/* One measuring run at a time on a machine: two at once would each
 * measure the other's load, silently. `run` and `bench` take this lock;
 * the second waits, saying for whom, or with RMAPBENCH_LOCK_WAIT=0
 * refuses in one line. The lock file is $RMAPBENCH_LOCK, else
 * /run/rmapbench.lock (root), else $XDG_RUNTIME_DIR/rmapbench.lock, else
 * /tmp/rmapbench-UID.lock, and must be a file of ours; it is an flock, so
 * a killed holder releases it. */
#ifndef RMAPBENCH_RUNLOCK_H
#define RMAPBENCH_RUNLOCK_H

#include <stddef.h>

/* 0 with the lock held until the process exits; -1 with err (refused,
 * interrupted while waiting, or the lock file unusable). */
int run_lock_take(const char *db_path, char *err, size_t errlen);

#endif
