/* A trace file read once, bounded (trace_file.h). */
#include "trace_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define LINE_MAX_BYTES TRACE_LINE_MAX

struct loader {
	struct trace_file *f;
	const char *path;
	unsigned long lineno;
	bool in_header, ended;
	unsigned long end_line;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int fail(struct loader *l, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(l->err, l->errlen, "%s:%lu: %s", l->path, l->lineno, msg);
	return -1;
}

static int keep(struct loader *l, const char *s, size_t len)
{
	struct trace_file *f = l->f;
	if (f->n == f->ncap) {
		size_t cap = f->ncap ? f->ncap * 2 : 4096;
		uint32_t *at = realloc(f->at, cap * sizeof(*at));
		if (at)
			f->at = at;
		uint32_t *no = at ? realloc(f->lineno, cap * sizeof(*no)) : NULL;
		if (!no)
			return fail(l, "out of memory after %zu operations", f->n);
		f->lineno = no;
		f->ncap = cap;
	}
	if (f->len + len + 1 > f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 1 << 16;
		while (cap < f->len + len + 1)
			cap *= 2;
		char *t = realloc(f->text, cap);
		if (!t)
			return fail(l, "out of memory after %zu operations", f->n);
		f->text = t;
		f->cap = cap;
	}
	f->at[f->n] = (uint32_t)f->len;
	f->lineno[f->n++] = (uint32_t)l->lineno;
	memcpy(f->text + f->len, s, len);
	f->text[f->len + len] = 0;
	f->len += len + 1;
	return 0;
}

/* A header line: the format, the page size, the command. */
static int header(struct loader *l, const char *s)
{
	int v;
	long ps;
	if (sscanf(s, TRACE_KEY_FORMAT " %d", &v) == 1) {
		if (v < 1 || v > TRACE_FORMAT_VERSION)
			return fail(l, "trace format %d: this replay reads 1 to %d", v, TRACE_FORMAT_VERSION);
		l->f->format = v;
	} else if (sscanf(s, TRACE_KEY_PAGE_SIZE "%ld", &ps) == 1 && ps != sysconf(_SC_PAGESIZE)) {
		return fail(l, "recorded with %ld-byte pages, this machine's are %ld: a trace from another "
			       "machine (its page numbers are other addresses); record it here",
			    ps, sysconf(_SC_PAGESIZE));
	} else if (!strncmp(s, TRACE_KEY_COMMAND, strlen(TRACE_KEY_COMMAND))) {
		/* outside bytes bound for a terminal and the database: control
		 * bytes (a terminal's escapes) become '?' */
		char *c = l->f->command;
		snprintf(c, sizeof(l->f->command), "%s", s + strlen(TRACE_KEY_COMMAND));
		for (; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
	}
	return 0;
}

static int line(struct loader *l, char *s, size_t len)
{
	if (++l->lineno > TRACE_FILE_MAX_LINES)
		return fail(l, "more than %lu lines", TRACE_FILE_MAX_LINES);
	if (len > LINE_MAX_BYTES)
		return fail(l, "longer than %d bytes", LINE_MAX_BYTES);
	while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	s[len] = 0;
	const char *p = s + strspn(s, " \t");
	if (!*p)
		return 0;
	if (*p == '#') {
		size_t e = strlen(TRACE_KEY_END);
		if (!strncmp(p, TRACE_KEY_END, e) && (!p[e] || p[e] == ':' || p[e] == ' ')) {
			l->ended = true;
			l->end_line = l->lineno;
		}
		return l->in_header ? header(l, p) : 0;
	}
	l->in_header = false;
	if (l->ended)
		return fail(l, "an operation after the '# end' line (line %lu)", l->end_line);
	return keep(l, p, strlen(p));
}

/* The n bytes just read after the have carried over, cut into lines,
 * the last one's start carried over again: 0, or -1 with the error. */
static int chunk(struct loader *l, char *buf, size_t *have, int n, size_t *total)
{
	char *nul = memchr(buf + *have, 0, (size_t)n);
	if (nul) { /* said on its own line, not as a line too long */
		for (char *c = buf; c < nul; c++)
			l->lineno += *c == '\n';
		l->lineno++;
		return fail(l, "a NUL byte: not a text trace");
	}
	*total += (size_t)n;
	if (*total > TRACE_FILE_MAX_BYTES) {
		snprintf(l->err, l->errlen, "%s: more than %lu MiB of text: over the replay's limit", l->path,
			 TRACE_FILE_MAX_BYTES >> 20);
		return -1;
	}
	*have += (size_t)n;
	size_t start = 0;
	char *nl;
	while ((nl = memchr(buf + start, '\n', *have - start))) {
		if (line(l, buf + start, (size_t)(nl - (buf + start))) < 0)
			return -1;
		start = (size_t)(nl - buf) + 1;
	}
	memmove(buf, buf + start, *have - start);
	*have -= start;
	if (n == 0) /* the end: a last line without its newline */
		return *have ? line(l, buf, *have) : 0;
	if (*have > LINE_MAX_BYTES) {
		l->lineno++;
		return fail(l, "longer than %d bytes", LINE_MAX_BYTES);
	}
	return 0;
}

/* The stream read to its end, a chunk at a time: 0, or -1 with the error. */
static int read_all(struct loader *l, gzFile gz)
{
	static char buf[(1 << 17) + LINE_MAX_BYTES + 2];
	size_t have = 0, total = 0;
	for (;;) {
		int n = gzread(gz, buf + have, (unsigned)(sizeof(buf) - have - 1)), zerr = Z_OK;
		if (n <= 0)
			gzerror(gz, &zerr); /* a cut stream ends as an end of file, with an error */
		if (n < 0 || (zerr != Z_OK && zerr != Z_STREAM_END)) {
			snprintf(l->err, l->errlen, "%s: truncated or corrupt after line %lu (zlib: %s)", l->path,
				 l->lineno, gzerror(gz, &zerr));
			return -1;
		}
		if (chunk(l, buf, &have, n, &total) < 0)
			return -1;
		if (n == 0)
			return 0;
	}
}

int trace_file_load(struct trace_file *f, const char *path, int flags, char *err, size_t errlen)
{
	struct stat st;
	memset(f, 0, sizeof(*f));
	f->format = 1;
	int serr = stat(path, &st) < 0 ? errno : 0; /* not a stale errno for a directory */
	if (serr || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, serr ? strerror(serr) : "not a regular file");
		return -1;
	}
	gzFile gz = gzopen(path, "rb");
	if (!gz) {
		snprintf(err, errlen, "%s: cannot be read", path);
		return -1;
	}
	gzbuffer(gz, 1 << 17);
	struct loader l = { .f = f, .path = path, .in_header = true, .err = err, .errlen = errlen };
	int rc = read_all(&l, gz);
	gzclose(gz);
	if (rc == 0 && !f->n) {
		snprintf(err, errlen, "%s: no operation in it (an empty or cut trace)", path);
		rc = -1;
	} else if (rc == 0 && !l.ended && (flags & TRACE_FILE_WHOLE)) {
		snprintf(err, errlen, "%s:%lu: truncated: no '# end' line last (the recording did not finish; a trace "
			 "written by hand ends with '# end')", path, l.lineno);
		rc = -1;
	}
	if (rc)
		trace_file_free(f);
	return rc;
}

const char *trace_file_next(void *arg, unsigned long *lineno)
{
	struct trace_file *f = arg;
	if (f->next >= f->n)
		return NULL;
	*lineno = f->lineno[f->next];
	return f->text + f->at[f->next++];
}

void trace_file_rewind(struct trace_file *f)
{
	f->next = 0;
}

void trace_file_free(struct trace_file *f)
{
	free(f->text);
	free(f->at);
	free(f->lineno);
	f->text = NULL;
	f->at = f->lineno = NULL;
	f->n = f->len = f->cap = f->ncap = 0;
}
