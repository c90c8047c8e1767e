/* A swap file for a run, only when the config asks (swap_mib > 0), always
 * undone: at the end of the run, and by the next run if this one was
 * killed (the file's name carries the pid that made it). */
#ifndef RMAPBENCH_SWAP_H
#define RMAPBENCH_SWAP_H

#include <stddef.h>

int swap_enable(const char *dir, long mib, char *path, size_t pathlen, char *err, size_t errlen);
void swap_disable(const char *path);
void swap_reap_stale(const char *dir);

#endif
