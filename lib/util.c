#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void say(const char *level, const char *fmt, va_list ap)
{
	fprintf(stderr, "rmapbench: %s: ", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void rb_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("error", fmt, ap);
	va_end(ap);
}

void rb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("warning", fmt, ap);
	va_end(ap);
}

char *rb_read_file(const char *path, size_t *lenp)
{
	return rb_read_file_max(path, RB_READ_MAX, lenp);
}

static char *read_fd_max(int fd, size_t max, size_t *lenp);

char *rb_read_file_max(const char *path, size_t max, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	return read_fd_max(fd, max, lenp);
}

char *rb_read_regular_file_max(const char *path, size_t max, size_t *lenp)
{
	/* O_NONBLOCK: a FIFO opens at once instead of waiting for a writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return read_fd_max(fd, max, lenp);
}

/* Reads fd to its end (and closes it). */
static char *read_fd_max(int fd, size_t max, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1);
	for (;;) {
		if (!buf)
			break;
		if (len > max) { /* /dev/zero, or a file that is not what it says */
			free(buf);
			close(fd);
			errno = EFBIG;
			return NULL;
		}
		if (len == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (buf) {
		buf[len] = 0;
		if (lenp)
			*lenp = len;
	}
	return buf;
}

int rb_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t len = strlen(text);
	ssize_t n = write(fd, text, len);
	int e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)len ? 0 : -1;
}

const char *rb_sys_path(const char *path, char *buf, size_t len)
{
	const char *root = getenv("RMAPBENCH_SYSROOT");
	if (!root || !*root)
		return path;
	snprintf(buf, len, "%s%s", root, path);
	return buf;
}

double rb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void rb_utc_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

uint64_t rb_fnv1a64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

int rb_mkdir_p(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* Field 22 of /proc/PID/stat: start time in clock ticks since boot. Comm
 * can hold spaces and parentheses, so parse from the last ')'. */
int rb_process_starttime(int pid, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	char *s = rb_read_file(path, NULL);
	if (!s)
		return -1;
	char *p = strrchr(s, ')');
	int field = 2, rc = -1;
	for (char *save = NULL, *tok = p ? strtok_r(p + 1, " ", &save) : NULL; tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (++field == 22) {
			snprintf(buf, len, "%s", tok);
			rc = 0;
			break;
		}
	}
	free(s);
	return rc;
}

int rb_process_alive(int pid, const char *starttime)
{
	char now[32];
	if (pid <= 0 || rb_process_starttime(pid, now, sizeof(now)) < 0)
		return 0;
	return !starttime || !strcmp(now, starttime);
}

int rb_capture(char *const argv[], char *buf, size_t len)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fds[1], 1);
		int devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	size_t used = 0;
	for (;;) {
		char tmp[512];
		ssize_t n = read(fds[0], tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size_t take = (size_t)n;
		if (used + take >= len)
			take = len - used - 1;
		memcpy(buf + used, tmp, take);
		used += take;
	}
	buf[used] = 0;
	close(fds[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	rb_trim(buf);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int rb_have_program(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];
	if (!path)
		path = "/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name);
		if (access(buf, X_OK) == 0)
			return 1;
		p += n + (colon != NULL);
	}
	return 0;
}

char *rb_trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	char *p = s;
	while (*p == ' ' || *p == '\t')
		p++;
	if (p != s)
		memmove(s, p, strlen(p) + 1);
	return s;
}

int rb_create_file(const char *path, int mode)
{
	struct stat st;
	if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode) && unlink(path) < 0)
		return -1;
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

FILE *rb_create_stream(const char *path)
{
	int fd = rb_create_file(path, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	return f;
}

static struct {
	int fd;
	dev_t dev;
	ino_t ino;
	char shown[PATH_MAX];
	char pinned[48];
} pins[32];
static int npins;

int rb_dir_pin(const char *dir, char *pinned, size_t len)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	if (st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	for (int i = 0; i < npins; i++)
		if (pins[i].dev == st.st_dev && pins[i].ino == st.st_ino) {
			close(fd);
			snprintf(pinned, len, "%s", pins[i].pinned);
			return 0;
		}
	if (npins == (int)(sizeof(pins) / sizeof(pins[0]))) { /* a process makes a few */
		close(fd);
		errno = EMFILE;
		return -1;
	}
	pins[npins].fd = fd;
	pins[npins].dev = st.st_dev;
	pins[npins].ino = st.st_ino;
	snprintf(pins[npins].shown, sizeof(pins[0].shown), "%s", dir);
	snprintf(pins[npins].pinned, sizeof(pins[0].pinned), "/proc/%d/fd/%d", (int)getpid(), fd);
	snprintf(pinned, len, "%s", pins[npins++].pinned);
	return 0;
}

/* The pin whose /proc/PID/fd/N path leads path, or -1. */
static int pin_of(const char *path)
{
	for (int i = 0; i < npins; i++) {
		size_t n = strlen(pins[i].pinned);
		if (!strncmp(path, pins[i].pinned, n) && (path[n] == '/' || !path[n]))
			return i;
	}
	return -1;
}

const char *rb_path_shown(const char *path, char *buf, size_t len)
{
	int i = pin_of(path);
	if (i < 0)
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "%s%s", pins[i].shown, path + strlen(pins[i].pinned));
	return buf;
}

bool rb_path_pinned(const char *path)
{
	return pin_of(path) >= 0;
}

int rb_own_dir(const char *path, int mode)
{
	if (mkdir(path, (mode_t)mode) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	struct stat st;
	if (lstat(path, &st) < 0)
		return -1;
	if (S_ISLNK(st.st_mode)) {
		errno = ELOOP;
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		errno = !S_ISDIR(st.st_mode) ? ENOTDIR : EPERM;
		return -1;
	}
	return 0;
}

bool rb_is_label(const char *s)
{
	size_t n = strlen(s);
	return n && s[0] != '.' && s[0] != '-' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}
