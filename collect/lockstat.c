#include "lockstat.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int find_class(struct lockstat_class *v, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return i;
	return -1;
}

int lockstat_parse(const char *text, struct lockstat_class *v, int max)
{
	int n = 0;
	if (strncmp(text, "lock_stat version", 17))
		return -1;
	for (const char *line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char buf[512];
		if (len >= sizeof(buf))
			continue;
		memcpy(buf, line, len);
		buf[len] = 0;
		/* a class row: "NAME: 12 numbers"; call-site rows have no ':' + numbers */
		char *colon = strstr(buf, ": ");
		double f[12];
		if (!colon || sscanf(colon + 1, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &f[0], &f[1], &f[2],
				     &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10], &f[11]) != 12)
			continue;
		*colon = 0;
		char *name = rb_trim(buf);
		size_t nl = strlen(name);
		if (nl > 2 && name[nl - 2] == '-' && (name[nl - 1] == 'W' || name[nl - 1] == 'R'))
			name[nl - 2] = 0;
		int i = find_class(v, n, name);
		if (i < 0) {
			if (n == max)
				continue;
			i = n++;
			memset(&v[i], 0, sizeof(v[i]));
			snprintf(v[i].name, sizeof(v[i].name), "%s", name);
		}
		v[i].contentions += f[1];
		v[i].wait_us += f[4];
		v[i].acquisitions += f[7];
		v[i].hold_us += f[10];
	}
	return n;
}

int lockstat_clear(char *why, size_t len)
{
	char buf[256];
	const char *path = rb_sys_path("/proc/lock_stat", buf, sizeof(buf));
	if (access(path, F_OK) < 0) {
		snprintf(why, len, "no /proc/lock_stat: this kernel was built without CONFIG_LOCK_STAT");
		return -1;
	}
	if (getenv("RMAPBENCH_SYSROOT"))
		return 0; /* a fake tree: nothing to clear */
	if (rb_write_file(path, "0") < 0) {
		snprintf(why, len, "cannot clear /proc/lock_stat: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int by_contentions(const void *a, const void *b)
{
	const struct lockstat_class *x = a, *y = b;
	return x->contentions < y->contentions ? 1 : x->contentions > y->contentions ? -1 : 0;
}

void lockstat_report(struct sample_set *out)
{
	char buf[256];
	char *text = rb_read_file(rb_sys_path("/proc/lock_stat", buf, sizeof(buf)), NULL);
	static struct lockstat_class v[4096];
	int n = text ? lockstat_parse(text, v, (int)ARRAY_SIZE(v)) : -1;
	free(text);
	if (n < 0) {
		ss_unavailable(out, "lockstat_anon_vma_contentions", "/proc/lock_stat is not readable or not lock_stat");
		return;
	}
	double con = 0, wait = 0, avc = 0, avw = 0, ava = 0;
	int seen = 0;
	for (int i = 0; i < n; i++) {
		con += v[i].contentions;
		wait += v[i].wait_us;
		if (strstr(v[i].name, "anon_vma->")) {
			avc += v[i].contentions;
			avw += v[i].wait_us;
			ava += v[i].acquisitions;
			seen = 1;
		}
	}
	ss_add(out, "lockstat_contentions", con, "contentions");
	ss_add(out, "lockstat_wait_ns", wait * 1000.0, "ns");
	ss_add(out, "lockstat_anon_vma_contentions", avc, "contentions");
	ss_add(out, "lockstat_anon_vma_wait_ns", avw * 1000.0, "ns");
	ss_add(out, "lockstat_anon_vma_acquisitions", ava, "acquisitions");
	if (!seen)
		ss_attr(out, "lockstat_anon_vma_class", "absent from /proc/lock_stat");
	qsort(v, (size_t)n, sizeof(v[0]), by_contentions);
	for (int i = 0; i < n && i < 5; i++) {
		char key[32];
		snprintf(key, sizeof(key), "lockstat_top%d", i + 1);
		ss_attr(out, key, "%s contentions=%.0f wait_us=%.2f", v[i].name, v[i].contentions, v[i].wait_us);
	}
}
