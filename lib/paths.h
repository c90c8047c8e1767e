/* Where our other files are: binaries beside the running one, and folders
 * of the source tree it was built in. The binaries live in build/ (or
 * build/asan/ for the tests), so "beside" looks there and one level up;
 * an environment variable overrides each, for installs and tests. */
#ifndef RMAPBENCH_PATHS_H
#define RMAPBENCH_PATHS_H

#include <stddef.h>

/* The directory of the running executable. */
int rb_exe_dir(char *buf, size_t len);
/* $ENVVAR, else NAME beside the executable (or one level up); 0 when it
 * is executable. buf gets the path tried either way, for the message. */
int rb_sibling_binary(const char *envvar, const char *name, char *buf, size_t len);
/* $ENVVAR, else the source tree's folder SUB (../SUB or ../../SUB from the
 * executable) holding PROBE; 0 when found. */
int rb_source_dir(const char *envvar, const char *sub, const char *probe, char *buf, size_t len);

#endif
