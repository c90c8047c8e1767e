/* An initramfs writer: the "newc" cpio format the kernel unpacks
 * (Documentation/driver-api/early-userspace/buffer-format.rst). */
#ifndef RMAPBENCH_CPIO_H
#define RMAPBENCH_CPIO_H

#include <stddef.h>
#include <stdio.h>

struct cpio {
	FILE *f;
	unsigned ino;
	int err;
};

int cpio_open(struct cpio *c, const char *path);
void cpio_dir(struct cpio *c, const char *name);
void cpio_chardev(struct cpio *c, const char *name, unsigned major, unsigned minor);
void cpio_data(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len);
/* The largest file cpio_file packs: the agent, the workload binary and a
 * module are a few MiB at most. */
#define CPIO_FILE_MAX ((size_t)64 << 20)
/* Copies a host file in as name; -1 with errno when it cannot be read
 * (EFBIG past CPIO_FILE_MAX, EINVAL for anything but a regular file). */
int cpio_file(struct cpio *c, const char *name, unsigned mode, const char *src);
/* Writes the trailer; -1 if anything failed on the way. */
int cpio_close(struct cpio *c);

#endif
