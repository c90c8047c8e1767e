/* The run's swap file is made and switched on through the descriptor that
 * created it (swapon of /proc/self/fd/N), never by a name someone could
 * swap for a link; it carries the label rmapbench-PID in its header, which
 * is what a later run checks before it undoes a stale one. */
#include "swap.h"
#include "swapfile.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <unistd.h>

#define NAME_FORMAT ".rmapbench-swap-%d"

static int swap_fd = -1;
static char swap_path[1100];

static void label_of(int pid, char *buf, size_t len)
{
	snprintf(buf, len, "rmapbench-%d", pid);
}

static void fd_path(int fd, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

int swap_enable(const char *dir, long mib, char *path, size_t pathlen, char *err, size_t errlen)
{
	snprintf(path, pathlen, "%s/" NAME_FORMAT, dir, (int)getpid());
	int fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "swap file %s: %s", path, strerror(errno));
		return -1;
	}
	/* The labelled header first: a run killed while it fills the rest
	 * leaves a file a later run can prove is a run's, and undo. Written,
	 * not fallocated: swapon refuses files with holes or unwritten
	 * extents on some filesystems. */
	static char zero[1 << 20];
	char label[32], via[64];
	long page = sysconf(_SC_PAGESIZE);
	label_of((int)getpid(), label, sizeof(label));
	if (swap_header_write(fd, (uint64_t)mib << 20, page, label) < 0) {
		snprintf(err, errlen, "swap file %s: writing its header: %s", path, strerror(errno));
		goto fail;
	}
	for (off_t at = page, end = (off_t)mib << 20; at < end;) {
		size_t n = end - at < (off_t)sizeof(zero) ? (size_t)(end - at) : sizeof(zero);
		errno = ENOSPC; /* a short write sets none: a full disk */
		ssize_t w = pwrite(fd, zero, n, at);
		if (w <= 0) {
			snprintf(err, errlen, "swap file %s: writing: %s", path, strerror(errno));
			goto fail;
		}
		at += w;
	}
	fd_path(fd, via, sizeof(via));
	if (swapon(via, 0) < 0) {
		snprintf(err, errlen, "swapon %s: %s", path, strerror(errno));
		goto fail;
	}
	swap_fd = fd;
	snprintf(swap_path, sizeof(swap_path), "%s", path);
	return 0;
fail:
	close(fd);
	unlink(path);
	return -1;
}

void swap_disable(const char *path)
{
	if (!path || !*path || swap_fd < 0 || strcmp(path, swap_path))
		return;
	char via[64];
	fd_path(swap_fd, via, sizeof(via));
	if (swapoff(via) < 0 && errno != EINVAL)
		rb_warn("swapoff %s: %s", path, strerror(errno));
	close(swap_fd);
	swap_fd = -1;
	unlink(path);
}

/* A stale file is undone only when it is provably a run's: a regular file
 * of ours, not a link, with the swap header labelled by the pid in its
 * name. Anything else is left alone, with a warning. */
static void reap_one(int dirfd, const char *dir, const char *name, int pid)
{
	char label[32], via[64];
	label_of(pid, label, sizeof(label));
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st, again;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1 ||
	    !swap_header_is(fd, sysconf(_SC_PAGESIZE), label)) {
		rb_warn("%s/%s looks like a stale swap file but is not provably ours (%s): left alone", dir, name,
			fd < 0 ? strerror(errno) : "not a regular file of ours with our swap label");
		if (fd >= 0)
			close(fd);
		return;
	}
	rb_warn("undoing swap file %s/%s left by a killed run", dir, name);
	fd_path(fd, via, sizeof(via));
	if (swapoff(via) < 0 && errno != EINVAL)
		rb_warn("swapoff %s/%s: %s", dir, name, strerror(errno));
	/* unlinked only if the name still holds the file just checked */
	if (fstatat(dirfd, name, &again, AT_SYMLINK_NOFOLLOW) == 0 && again.st_ino == st.st_ino &&
	    again.st_dev == st.st_dev)
		unlinkat(dirfd, name, 0);
	close(fd);
}

void swap_reap_stale(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		int pid, end = 0;
		if (sscanf(e->d_name, NAME_FORMAT "%n", &pid, &end) != 1 || e->d_name[end] || rb_process_alive(pid, NULL))
			continue;
		reap_one(dirfd(d), dir, e->d_name, pid);
	}
	closedir(d);
}
