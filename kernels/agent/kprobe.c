/* rmap walk counts from kprobe events: each probe is registered in
 * kprobe_events and enabled, with tracing off so that no record is
 * written; kprobe_profile's hit count is what we read, before and after
 * the point. rmap_walks counts entries to the anon walk (rmap_walk_anon
 * on 6.1); rmap_vmas_visited counts the rmap_one callbacks it made
 * (folio_referenced_one, try_to_unmap_one), one per VMA visited. */
#include "agent.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACING "/sys/kernel/tracing"
#define MAX_PROBES 8

struct probe {
	char kind[8], func[64];
	int ok;
	char why[160];
	unsigned long long hits[2];
};

static struct probe probes[MAX_PROBES];
static int nprobes;

/* Plain write(2): stdio's append mode seeks to the end first, which
 * tracefs files refuse with EINVAL. */
static int write_str(const char *path, const char *s, int append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -1;
	size_t n = strlen(s);
	int r = write(fd, s, n) == (ssize_t)n ? 0 : -1;
	int e = errno;
	close(fd);
	errno = e;
	return r;
}

void kprobe_add(const char *kind, const char *func)
{
	if (nprobes == MAX_PROBES)
		return;
	struct probe *p = &probes[nprobes++];
	snprintf(p->kind, sizeof(p->kind), "%s", kind);
	snprintf(p->func, sizeof(p->func), "%s", func);
	char def[200], path[200];
	snprintf(def, sizeof(def), "p:rmapbench/%s %s\n", func, func);
	if (write_str(TRACING "/kprobe_events", def, 1) < 0) {
		/* tracefs says why in error_log: keep its last line. */
		int e = errno;
		char *log = rb_read_file(TRACING "/error_log", NULL);
		char *last = log ? rb_trim(log) : NULL;
		if (last && strrchr(last, '\n'))
			last = strrchr(last, '\n') + 1;
		snprintf(p->why, sizeof(p->why), "kprobe on %s refused: %s%s%s", func, strerror(e),
			 last && *last ? ": " : "", last ? last : "");
		free(log);
		return;
	}
	write_str(TRACING "/tracing_on", "0", 0);
	snprintf(path, sizeof(path), TRACING "/events/rmapbench/%s/enable", func);
	if (write_str(path, "1", 0) < 0) {
		snprintf(p->why, sizeof(p->why), "enabling the kprobe on %s: %s", func, strerror(errno));
		return;
	}
	p->ok = 1;
}

/* kprobe_profile: "  EVENT   HITS   MISSES" a line (the event's name,
 * without its group). */
void kprobe_snapshot(int after)
{
	char *text = rb_read_file(TRACING "/kprobe_profile", NULL);
	for (int i = 0; i < nprobes; i++) {
		struct probe *p = &probes[i];
		int found = 0;
		for (char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
			char name[128];
			unsigned long long hits;
			if (sscanf(line, "%127s %llu", name, &hits) == 2 && !strcmp(name, p->func)) {
				p->hits[after] = hits;
				found = 1;
				break;
			}
		}
		if (!found && p->ok) {
			snprintf(p->why, sizeof(p->why), "kprobe %s is not in kprobe_profile", p->func);
			p->ok = 0;
		}
	}
	free(text);
}

void kprobe_report(struct sample_set *ss)
{
	double walks = 0, vmas = 0;
	int walk_ok = 0, vma_ok = 0, walk_seen = 0, vma_seen = 0;
	const char *walk_why = "no kprobe of kind walk in the plan", *vma_why = "no kprobe of kind vma in the plan";
	for (int i = 0; i < nprobes; i++) {
		struct probe *p = &probes[i];
		int is_walk = !strcmp(p->kind, "walk");
		if (!p->ok) {
			/* One missing callback makes the VMA count a lower bound: say so. */
			if (is_walk)
				walk_why = p->why, walk_seen = 1;
			else
				vma_why = p->why, vma_seen = 1;
			continue;
		}
		double d = (double)(p->hits[1] - p->hits[0]);
		char metric[96];
		snprintf(metric, sizeof(metric), "kprobe_%s_hits", p->func);
		ss_add(ss, metric, d, "hits");
		if (is_walk) {
			walks += d;
			walk_ok = !walk_seen;
		} else {
			vmas += d;
			vma_ok = !vma_seen;
		}
	}
	if (walk_ok)
		ss_add(ss, "rmap_walks", walks, "walks");
	else
		ss_unavailable(ss, "rmap_walks", "%s", walk_why);
	if (vma_ok)
		ss_add(ss, "rmap_vmas_visited", vmas, "vmas");
	else
		ss_unavailable(ss, "rmap_vmas_visited", "%s", vma_why);
	if (walk_ok && vma_ok && walks > 0)
		ss_add(ss, "rmap_vmas_per_walk", vmas / walks, "vmas/walk");
	else if (walk_ok && vma_ok)
		ss_unavailable(ss, "rmap_vmas_per_walk", "no rmap walk happened during the point (no reclaim)");
	else
		ss_unavailable(ss, "rmap_vmas_per_walk", "%s", !walk_ok ? walk_why : vma_why);
}
