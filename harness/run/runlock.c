#include "runlock.h"
#include "signals.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Somewhere only we can create it: /run is root's alone (/run/lock is
 * 1777, where any local user could create the lock first, hold it, and
 * write what the refusal says); a user's own runtime folder; else /tmp,
 * where the file's owner is checked below. */
static void lock_path(char *buf, size_t len)
{
	const char *env = getenv("RMAPBENCH_LOCK"), *xdg = getenv("XDG_RUNTIME_DIR");
	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (geteuid() == 0 && access("/run", W_OK) == 0)
		snprintf(buf, len, "/run/rmapbench.lock");
	else if (xdg && *xdg == '/' && access(xdg, W_OK) == 0)
		snprintf(buf, len, "%s/rmapbench.lock", xdg);
	else
		snprintf(buf, len, "/tmp/rmapbench-%d.lock", (int)geteuid());
}

/* What the holder wrote of itself, on one line. */
static void holder(int fd, char *buf, size_t len)
{
	char text[512];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = 0;
	for (char *c = text; *c; c++)
		if (*c == '\n' || (unsigned char)*c < 0x20)
			*c = ' ';
	snprintf(buf, len, "%s", *rb_trim(text) ? text : "a process that did not say who it is");
}

static int held = -1; /* a process takes it once (compare-kernels runs twice) */

int run_lock_take(const char *db_path, char *err, size_t errlen)
{
	if (held >= 0)
		return 0;
	char path[1024], who[512];
	lock_path(path, sizeof(path));
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "the run lock %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* a lock someone else made could be held, and said, by them */
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		snprintf(err, errlen, "the run lock %s is not a file of ours (uid %d, mode %o): remove it", path,
			 (int)st.st_uid, (unsigned)st.st_mode);
		close(fd);
		return -1;
	}
	const char *wait = getenv("RMAPBENCH_LOCK_WAIT");
	int said = 0;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			snprintf(err, errlen, "the run lock %s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		holder(fd, who, sizeof(who));
		if (wait && !strcmp(wait, "0")) {
			snprintf(err, errlen, "another measuring run holds %s (%s): refusing to run beside it", path, who);
			close(fd);
			return -1;
		}
		if (rb_interrupted || rb_stop_now) {
			snprintf(err, errlen, "interrupted while waiting for %s (%s)", path, who);
			close(fd);
			return -1;
		}
		if (!said++)
			fprintf(stderr, "rmapbench: waiting for another measuring run to finish (%s; lock %s)\n", who, path);
		usleep(200000);
	}
	char now[32], line[1400];
	rb_utc_now(now, sizeof(now));
	int n = snprintf(line, sizeof(line), "pid %d, database %s, since %s\n", (int)getpid(), db_path, now);
	if (ftruncate(fd, 0) == 0 && pwrite(fd, line, (size_t)n, 0) != n)
		rb_warn("the run lock %s: could not say who holds it", path);
	held = fd;
	return 0; /* held until exit: the descriptor stays open */
}
