#include "emit.h"
#include "trace_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

int emit_open(struct emit *o, int dirfd, const char *name, int text, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	o->fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (o->fd < 0) {
		snprintf(err, errlen, "%s: %s%s", name, strerror(errno),
			 errno == EEXIST ? " (a trace is never overwritten: choose another --out)" : "");
		return -1;
	}
	if (!text) {
		o->gz = gzdopen(o->fd, "wb6");
		if (!o->gz) {
			snprintf(err, errlen, "%s: gzdopen failed", name);
			close(o->fd);
			return -1;
		}
	}
	return 0;
}

static void put(struct emit *o, const char *s, size_t n)
{
	if (o->len + n > sizeof(o->buf)) {
		if (o->gz ? gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len
			  : write(o->fd, o->buf, o->len) != (ssize_t)o->len)
			o->failed = true; /* said at close */
		o->len = 0;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void flush_run(struct emit *o)
{
	if (!o->run_n)
		return;
	char line[96];
	int n = o->run_n == 1 ? snprintf(line, sizeof(line), "%s %lu %llu\n", o->run_op, o->run_proc,
					 (unsigned long long)o->run_start)
			      : snprintf(line, sizeof(line), "%s %lu %llu %llu\n", o->run_op, o->run_proc,
					 (unsigned long long)o->run_start, (unsigned long long)o->run_n);
	put(o, line, (size_t)n);
	o->lines++;
	o->run_n = 0;
}

void emit_line(struct emit *o, const char *fmt, ...)
{
	flush_run(o);
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	put(o, line, (size_t)n);
	if (line[0] != '#')
		o->lines++;
}

void emit_page(struct emit *o, const char *op, unsigned long proc, uint64_t page)
{
	if (o->run_n && !strcmp(o->run_op, op) && o->run_proc == proc && o->run_start + o->run_n == page && o->run_n < TRACE_MAX_RUN_PAGES) {
		o->run_n++;
		return;
	}
	flush_run(o);
	o->run_op = op;
	o->run_proc = proc;
	o->run_start = page;
	o->run_n = 1;
}

int emit_close(struct emit *o)
{
	flush_run(o);
	int rc = o->failed ? -1 : 0;
	if (o->gz) {
		if (o->len && gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len)
			rc = -1;
		if (gzclose(o->gz) != Z_OK)
			rc = -1;
	} else {
		if (o->len && write(o->fd, o->buf, o->len) != (ssize_t)o->len)
			rc = -1;
		if (close(o->fd) < 0)
			rc = -1;
	}
	return rc;
}
