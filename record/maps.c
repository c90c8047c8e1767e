#include "maps.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int hex(const char **p, const char *end, unsigned long *v)
{
	unsigned long x = 0;
	int n = 0;
	for (; *p < end && n < 17; (*p)++, n++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			break;
		x = x * 16 + (unsigned long)d;
	}
	if (!n || n > 16)
		return -1;
	*v = x;
	return 0;
}

static int skip(const char **p, const char *end, char c)
{
	if (*p >= end || **p != c)
		return -1;
	(*p)++;
	return 0;
}

static void skip_field(const char **p, const char *end)
{
	while (*p < end && **p != ' ')
		(*p)++;
	while (*p < end && **p == ' ')
		(*p)++;
}

/* "start-end perms offset dev inode [path]" */
int maps_parse_line(const char *line, size_t len, unsigned page_shift, struct anon_map *m)
{
	const char *p = line, *end = line + len;
	unsigned long start, stop;
	if (hex(&p, end, &start) < 0 || skip(&p, end, '-') < 0 || hex(&p, end, &stop) < 0 || skip(&p, end, ' ') < 0)
		return -1;
	if (end - p < 5 || stop <= start)
		return -1;
	const char *perm = p;
	static const char ok[4][2] = { { 'r', '-' }, { 'w', '-' }, { 'x', '-' }, { 'p', 's' } };
	for (int i = 0; i < 4; i++)
		if (perm[i] != ok[i][0] && perm[i] != ok[i][1])
			return -1;
	p += 4;
	if (skip(&p, end, ' ') < 0)
		return -1;
	skip_field(&p, end); /* offset */
	skip_field(&p, end); /* dev */
	const char *inode = p;
	skip_field(&p, end);
	if (p == inode)
		return -1;
	const char *path = p;
	size_t plen = (size_t)(end - path);
	while (plen && (path[plen - 1] == '\n' || path[plen - 1] == ' '))
		plen--;
	bool anon = inode[0] == '0' && (inode + 1 == end || inode[1] == ' ' || inode[1] == '\n');
	if (!anon || perm[3] != 'p')
		return 0; /* file-backed or shared: the trace cannot follow it */
	if (plen && !(plen == 6 && !memcmp(path, "[heap]", 6)) && !(plen == 7 && !memcmp(path, "[stack]", 7)) &&
	    !(plen > 6 && !memcmp(path, "[anon:", 6)))
		return 0; /* [vdso], [vvar], [vsyscall]: the kernel's */
	m->start = start >> page_shift;
	m->end = stop >> page_shift;
	m->prot = (perm[0] == 'r' ? MAP_PROT_R : 0) | (perm[1] == 'w' ? MAP_PROT_W : 0) | (perm[2] == 'x' ? MAP_PROT_X : 0);
	return m->end > m->start ? 1 : 0;
}

static int push(struct anon_maps *out, const struct anon_map *m)
{
	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 64;
		struct anon_map *v = realloc(out->v, cap * sizeof(*v));
		if (!v)
			return -1;
		out->v = v;
		out->cap = cap;
	}
	out->v[out->n++] = *m;
	return 0;
}

int maps_read(pid_t tid, unsigned page_shift, unsigned long max_pages, struct anon_maps *out)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tid);
	out->n = 0;
	out->skipped_huge = out->nhuge = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* lines of at most 4096 bytes (PATH_MAX and the fields): a longer one
	 * is cut, and its path cannot make it anonymous */
	char buf[65536];
	size_t have = 0;
	int rc = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - have);
		if (r < 0) {
			rc = -1;
			break;
		}
		have += (size_t)r;
		size_t at = 0;
		for (;;) {
			char *nl = memchr(buf + at, '\n', have - at);
			if (!nl && !(r == 0 && at < have) && !(have - at == sizeof(buf)))
				break;
			size_t len = nl ? (size_t)(nl - (buf + at)) : have - at;
			struct anon_map m;
			if (maps_parse_line(buf + at, len, page_shift, &m) == 1) {
				if (m.end - m.start > max_pages) {
					if (out->nhuge < MAPS_HUGE_KEPT)
						out->huge_start[out->nhuge++] = m.start;
					out->skipped_huge++;
				}
				else if (push(out, &m) < 0) {
					rc = -1;
					errno = ENOMEM;
					break;
				}
			}
			at += len + (nl ? 1 : 0);
			if (!nl)
				break;
		}
		memmove(buf, buf + at, have - at);
		have -= at;
		if (r == 0 || rc)
			break;
	}
	close(fd);
	return rc;
}

void maps_free(struct anon_maps *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}
