/* Small helpers every part of the harness uses. */
#ifndef RMAPBENCH_UTIL_H
#define RMAPBENCH_UTIL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One-line error on stderr, "rmapbench: error: ..." */
void rb_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reads a whole file; NULL with errno set on failure (EFBIG past the
 * cap: RB_READ_MAX for rb_read_file, whatever is given for _max). */
#define RB_READ_MAX ((size_t)64 << 20)
char *rb_read_file(const char *path, size_t *len);
char *rb_read_file_max(const char *path, size_t max, size_t *len);
/* The same for a file a user names (a config, a calibration): a regular
 * file only, EINVAL otherwise (EISDIR for a folder), and a FIFO is never
 * waited on. */
char *rb_read_regular_file_max(const char *path, size_t max, size_t *len);
/* Writes a string to an existing file such as a cgroup knob. */
int rb_write_file(const char *path, const char *text);

/* /proc and /sys paths go through here so that tests can point the
 * collectors at a fake tree (RMAPBENCH_SYSROOT) to exercise their parsing
 * and their unavailable paths. */
const char *rb_sys_path(const char *path, char *buf, size_t len);

/* A label (a kernel's, a design's): letters, digits, '.', '_', '-', not
 * starting with '.' or '-'; one word to gnuplot, no path to walk. */
bool rb_is_label(const char *s);
double rb_now(void);          /* CLOCK_MONOTONIC seconds */
void rb_utc_now(char *buf, size_t len); /* ISO 8601 */
uint64_t rb_fnv1a64(const void *data, size_t len);
int rb_mkdir_p(const char *path);
/* Files we write where others might have planted a link: whatever is at
 * PATH (a symlink included) is removed, then the file is created new,
 * never following a link (O_EXCL | O_NOFOLLOW). An fd, or -1 with errno. */
int rb_create_file(const char *path, int mode);
FILE *rb_create_stream(const char *path);
/* A directory we write into over a run, pinned: opened once
 * (O_DIRECTORY | O_NOFOLLOW), checked to be ours and written by no one
 * else, and named from then on as /proc/PID/fd/N in pinned. Every later
 * path under that name, ours or a child's (gnuplot, QEMU, a benchmark
 * binary), reaches this very directory, whoever swaps its name for a
 * link meanwhile. The same directory pinned again keeps its name. 0, or
 * -1 with errno (ELOOP for a link, EPERM for a folder not ours). */
int rb_dir_pin(const char *dir, char *pinned, size_t len);
/* A path as a person knows it: a pinned directory's own path in place of
 * its /proc/PID/fd/N; any other path as it is. Returns buf. */
const char *rb_path_shown(const char *path, char *buf, size_t len);
/* Whether path is under a pinned directory (no realpath for it). */
bool rb_path_pinned(const char *path);
/* A directory of ours: created with MODE, or already there as a real
 * directory owned by us (not a symlink); -1 with errno otherwise
 * (ELOOP for a link, EPERM for someone else's). */
int rb_own_dir(const char *path, int mode);
int rb_process_alive(int pid, const char *starttime);
int rb_process_starttime(int pid, char *buf, size_t len);
/* Runs argv, its stdout into buf (trimmed); returns exit status or -1. */
int rb_capture(char *const argv[], char *buf, size_t len);
int rb_have_program(const char *name);
/* Strips and returns; modifies s in place. */
char *rb_trim(char *s);

#endif
