/* rmapbench-record [--out FILE] [--text] -- CMD ARGS...: CMD and its whole
 * process tree under the tracer (tracer.c), what they did to anonymous
 * memory written as an engine trace (engine/trace.h) with a header saying
 * what was run where and what the trace cannot see. Exits with CMD's
 * status (128 + its signal); 2 when it could not record. */
#include "emit.h"
#include "trace_format.h"
#include "tracer.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int usage(void)
{
	fputs("usage: rmapbench-record [--out FILE] [--text] [--sample-ms N] -- CMD ARGS...\n"
	      "  FILE: created new, never overwritten (default: CMD's name.trace.gz here)\n"
	      "  N: every running process's memory is also read each N ms (default 10; 0: only at\n"
	      "     its forks, execs, exits and mm calls)\n",
	      stderr);
	return 2;
}

/* The command as one header line: printable bytes, at most 200 (a trace
 * line of `engine replay` is at most 255), "..." where it was cut. */
static void command_line(char *const argv[], char *out, size_t len)
{
	size_t at = 0, cap = len < 204 ? len - 4 : 200;
	bool cut = false;
	for (int i = 0; argv[i] && !cut; i++) {
		if (i && at < cap)
			out[at++] = ' ';
		for (const char *p = argv[i]; *p && !cut; p++) {
			if (at == cap)
				cut = true;
			else
				out[at++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
		}
	}
	memcpy(out + at, cut ? "..." : "", cut ? 4 : 1);
}

int main(int argc, char **argv)
{
	const char *out_path = NULL;
	int text = 0, i = 1;
	long sample_ms = 10;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out_path = argv[++i];
		else if (!strcmp(argv[i], "--text"))
			text = 1;
		else if (!strcmp(argv[i], "--sample-ms") && i + 1 < argc) {
			char *end;
			sample_ms = strtol(argv[++i], &end, 10);
			if (*end || end == argv[i] || sample_ms < 0 || sample_ms > 60000) {
				fprintf(stderr, "rmapbench-record: --sample-ms '%s': 0 to 60000 milliseconds\n", argv[i]);
				return 2;
			}
		}
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return usage() ? 0 : 0;
		else {
			fprintf(stderr, "rmapbench-record: unknown option '%s'\n", argv[i]);
			return usage();
		}
	}
	if (i >= argc)
		return usage();
	char *const *cmd = argv + i;
	char name[300];
	if (!out_path) {
		const char *base = strrchr(cmd[0], '/');
		base = base ? base + 1 : cmd[0];
		snprintf(name, sizeof(name), "%.200s.trace%s", base, text ? "" : ".gz");
		out_path = name;
	}
	/* created relative to its folder's descriptor, never through a link */
	char dir[4096];
	const char *slash = strrchr(out_path, '/'), *leaf = slash ? slash + 1 : out_path;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out_path) + (slash == out_path) : 1,
		 slash ? out_path : ".");
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || !*leaf) {
		fprintf(stderr, "rmapbench-record: --out %s: its folder %s cannot be opened\n", out_path, dir);
		return 2;
	}
	struct emit o;
	char err[600];
	if (emit_open(&o, dirfd, leaf, text, err, sizeof(err)) < 0) {
		fprintf(stderr, "rmapbench-record: --out %s: %s\n", out_path, err);
		return 2;
	}
	close(dirfd);
	struct utsname u;
	uname(&u);
	char cl[420], when[32];
	command_line(cmd, cl, sizeof(cl));
	time_t tnow = time(NULL);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&tnow));
	emit_line(&o, TRACE_KEY_FORMAT " %d", TRACE_FORMAT_VERSION);
	emit_line(&o, TRACE_KEY_COMMAND "%s", cl);
	emit_line(&o, "# kernel: %s %s %s", u.sysname, u.release, u.machine);
	emit_line(&o, TRACE_KEY_PAGE_SIZE "%ld", sysconf(_SC_PAGESIZE));
	emit_line(&o, "# recorded: %s", when);
	emit_line(&o, "# sees: private anonymous memory (mmap, brk, stacks) at each fork, exec, exit and mm call, "
		      "and every %ld ms; a page's first touch and its COW copies by /proc/PID/pagemap frame numbers",
		  sample_ms);
	emit_line(&o, "# cannot see: file-backed and shared memory, huge pages as such, KSM, swap, "
		      "a write that reuses its page in place (no new frame), reads of mapped pages");
	struct record_stats st;
	if (record_run(cmd, &o, sample_ms, &st, err, sizeof(err)) < 0) {
		emit_close(&o);
		unlinkat(AT_FDCWD, out_path, 0);
		fprintf(stderr, "rmapbench-record: %s\n", err);
		return 2;
	}
	emit_line(&o, TRACE_KEY_END ": %llu processes (%llu forks, %llu spawns, %llu execs), at most %lu at once, %llu threads",
		  (unsigned long long)st.processes, (unsigned long long)st.forks, (unsigned long long)st.spawns,
		  (unsigned long long)st.execs, st.live_max, (unsigned long long)st.threads);
	if (st.skipped_huge)
		emit_line(&o, "# skipped: %llu mappings larger than 256 GiB (each counted once)",
			  (unsigned long long)st.skipped_huge);
	if (st.untraced_cleared)
		emit_line(&o, "# untraced: %llu clone(CLONE_UNTRACED) calls, traced all the same",
			  (unsigned long long)st.untraced_cleared);
	uint64_t lines = o.lines;
	if (emit_close(&o) < 0) {
		fprintf(stderr, "rmapbench-record: %s: write failed\n", out_path);
		return 2;
	}
	fprintf(stderr,
		"rmapbench-record: %s: %llu operations, %llu processes (at most %lu at once), %llu stops, "
		"%llu syncs (%llu samples, %llu mappings scanned), %.2f s\n",
		out_path, (unsigned long long)lines, (unsigned long long)st.processes, st.live_max,
		(unsigned long long)st.stops, (unsigned long long)st.syncs, (unsigned long long)st.samples,
		(unsigned long long)st.scans, st.wall_s);
	if (st.status < 0)
		return 2;
	return WIFEXITED(st.status) ? WEXITSTATUS(st.status) : 128 + WTERMSIG(st.status);
}
