#include "swap.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

int swap_enable(const char *dir, long mib, char *path, size_t pathlen, char *err, size_t errlen)
{
	snprintf(path, pathlen, "%s/.rmapbench-swap-%d", dir, (int)getpid());
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "swap file %s: %s", path, strerror(errno));
		return -1;
	}
	/* Written, not fallocated: swapon refuses files with holes or
	 * unwritten extents on some filesystems. */
	static char zero[1 << 20];
	for (long i = 0; i < mib; i++) {
		if (write(fd, zero, sizeof(zero)) != (ssize_t)sizeof(zero)) {
			snprintf(err, errlen, "swap file %s: writing: %s", path, strerror(errno));
			close(fd);
			unlink(path);
			return -1;
		}
	}
	fsync(fd);
	close(fd);
	char out[256];
	char *argv[] = { "mkswap", path, NULL };
	if (rb_capture(argv, out, sizeof(out)) != 0) {
		snprintf(err, errlen, "mkswap %s failed (is util-linux installed?)", path);
		unlink(path);
		return -1;
	}
	if (swapon(path, 0) < 0) {
		snprintf(err, errlen, "swapon %s: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

void swap_disable(const char *path)
{
	if (!path || !*path)
		return;
	if (swapoff(path) < 0 && errno != EINVAL)
		rb_warn("swapoff %s: %s", path, strerror(errno));
	unlink(path);
}

void swap_reap_stale(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		int pid;
		if (sscanf(e->d_name, ".rmapbench-swap-%d", &pid) != 1 || rb_process_alive(pid, NULL))
			continue;
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rb_warn("undoing swap file %s left by a killed run", path);
		swap_disable(path);
	}
	closedir(d);
}
