#include "sandbox.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define CG "/sys/fs/cgroup"

static const char *cg_name(void)
{
	const char *n = getenv("RMAPBENCH_CGROUP_NAME");
	return n && *n ? n : "rmapbench";
}

static int detect(char *why, size_t len)
{
	if (geteuid() != 0) {
		snprintf(why, len, "not root: no cgroup, rlimits only");
		return 0;
	}
	if (access(CG "/cgroup.controllers", R_OK) == 0) {
		char *c = rb_read_file(CG "/cgroup.controllers", NULL);
		int ok = c && strstr(c, "memory") && strstr(c, "pids");
		free(c);
		if (ok)
			return 2;
		snprintf(why, len, "cgroup v2 without the memory and pids controllers: rlimits only");
		return 0;
	}
	if (access(CG "/memory/memory.limit_in_bytes", R_OK) == 0 && access(CG "/pids", R_OK) == 0)
		return 1;
	snprintf(why, len, "no cgroup memory and pids controllers mounted: rlimits only");
	return 0;
}

static int knob(const char *dir, const char *name, const char *val)
{
	char path[640];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return rb_write_file(path, val);
}

static int mkcg(const char *dir)
{
	return mkdir(dir, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

long sandbox_default_mem_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	return pages > 0 ? (long)((double)pages * (double)psz / 2.0 / 1048576.0) : 1024;
}

long sandbox_default_pids(long users)
{
	/* each user plus one job child at a time, the parent, slack */
	long want = 2 * users + 64, cap = 4096;
	char *s = rb_read_file("/proc/sys/kernel/pid_max", NULL);
	if (s) {
		cap = strtol(s, NULL, 10) - 2048; /* leave room for the rest of the machine */
		free(s);
	}
	return want < cap ? want : cap;
}

int sandbox_create(struct sandbox *sb, const char *tag, long mem_limit_mib, long pids_max)
{
	memset(sb, 0, sizeof(*sb));
	sb->mem_limit_mib = mem_limit_mib;
	sb->pids_max = pids_max;
	sb->version = detect(sb->why, sizeof(sb->why));
	char bytes[32], pids[32], base[512];
	snprintf(bytes, sizeof(bytes), "%lld", (long long)mem_limit_mib << 20);
	snprintf(pids, sizeof(pids), "%ld", pids_max);
	if (sb->version == 1) {
		snprintf(base, sizeof(base), CG "/memory/%s", cg_name());
		snprintf(sb->mem_dir, sizeof(sb->mem_dir), "%s/%s", base, tag);
		if (mkcg(base) < 0 || mkcg(sb->mem_dir) < 0)
			goto fail;
		snprintf(base, sizeof(base), CG "/pids/%s", cg_name());
		snprintf(sb->pids_dir, sizeof(sb->pids_dir), "%s/%s", base, tag);
		if (mkcg(base) < 0 || mkcg(sb->pids_dir) < 0)
			goto fail;
		if (knob(sb->mem_dir, "memory.limit_in_bytes", bytes) < 0 || knob(sb->pids_dir, "pids.max", pids) < 0)
			goto fail;
	} else if (sb->version == 2) {
		snprintf(base, sizeof(base), CG "/%s", cg_name());
		snprintf(sb->mem_dir, sizeof(sb->mem_dir), "%s/%s", base, tag);
		snprintf(sb->pids_dir, sizeof(sb->pids_dir), "%s", sb->mem_dir);
		knob(CG, "cgroup.subtree_control", "+memory +pids");
		if (mkcg(base) < 0 || knob(base, "cgroup.subtree_control", "+memory +pids") < 0 ||
		    mkcg(sb->mem_dir) < 0)
			goto fail;
		if (knob(sb->mem_dir, "memory.max", bytes) < 0 || knob(sb->pids_dir, "pids.max", pids) < 0)
			goto fail;
	}
	return 0;
fail:
	snprintf(sb->why, sizeof(sb->why), "cgroup v%d setup failed (%s): rlimits only", sb->version, strerror(errno));
	sandbox_destroy(sb);
	sb->version = 0;
	return -1;
}

int sandbox_attach(struct sandbox *sb, pid_t pid)
{
	char s[32];
	snprintf(s, sizeof(s), "%d", (int)pid);
	if (sb->version == 1)
		return knob(sb->mem_dir, "cgroup.procs", s) < 0 || knob(sb->pids_dir, "cgroup.procs", s) < 0 ? -1 : 0;
	if (sb->version == 2)
		return knob(sb->mem_dir, "cgroup.procs", s);
	return 0;
}

/* Calls fn on every pid in DIR/cgroup.procs; returns how many. */
static int for_each_proc(const char *dir, void (*fn)(pid_t))
{
	char path[640];
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	char *s = rb_read_file(path, NULL);
	int n = 0;
	if (!s)
		return 0;
	for (char *p = s, *end; *p; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			break;
		if (pid > 0) {
			n++;
			if (fn)
				fn((pid_t)pid);
		}
		while (*end == '\n')
			end++;
	}
	free(s);
	return n;
}

static void kill9(pid_t pid)
{
	kill(pid, SIGKILL);
}


int sandbox_kill_all(struct sandbox *sb)
{
	if (!sb->version)
		return 0;
	if (sb->version == 2)
		knob(sb->pids_dir, "cgroup.kill", "1"); /* 5.14+: atomic */
	/* a forking process can add members while we kill: repeat until empty */
	for (int round = 0; round < 500; round++) {
		if (!for_each_proc(sb->pids_dir, kill9) && !for_each_proc(sb->mem_dir, kill9))
			return 0;
		usleep(10000);
	}
	return for_each_proc(sb->pids_dir, NULL);
}

static long long read_ll(const char *dir, const char *name)
{
	char path[640];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *s = rb_read_file(path, NULL);
	long long v = s ? strtoll(s, NULL, 10) : -1;
	free(s);
	return v;
}

static long long read_keyed(const char *dir, const char *name, const char *key)
{
	char path[640];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *s = rb_read_file(path, NULL);
	long long v = -1;
	size_t kl = strlen(key);
	for (char *l = s; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, key, kl) && l[kl] == ' ')
			v = strtoll(l + kl + 1, NULL, 10);
	free(s);
	return v;
}

void sandbox_report(struct sandbox *sb, struct sample_set *out)
{
	if (!sb->version) {
		ss_attr(out, "sandbox", "%s", sb->why);
		ss_unavailable(out, "mem_peak_bytes", "%s", sb->why);
		return;
	}
	ss_attr(out, "sandbox", "cgroup v%d memory.limit=%ld MiB pids.max=%ld", sb->version, sb->mem_limit_mib,
		sb->pids_max);
	long long peak = read_ll(sb->mem_dir, sb->version == 1 ? "memory.max_usage_in_bytes" : "memory.peak");
	if (peak >= 0)
		ss_add(out, "mem_peak_bytes", (double)peak, "bytes");
	else
		ss_unavailable(out, "mem_peak_bytes", "this kernel's memory cgroup has no peak usage file");
	long long oom = sb->version == 1 ? read_keyed(sb->mem_dir, "memory.oom_control", "oom_kill")
					 : read_keyed(sb->mem_dir, "memory.events", "oom_kill");
	if (oom >= 0)
		ss_add(out, "memcg_oom_kills", (double)oom, "kills");
	long long hits = read_keyed(sb->pids_dir, "pids.events", "max");
	if (hits >= 0)
		ss_add(out, "pids_limit_hits", (double)hits, "forks");
}

/* The point's cgroup, then its parent if no other point is in it (rmdir
 * of a cgroup with children fails, and leaves it to whoever is last). */
static void rmdir_with_parent(const char *dir)
{
	if (rmdir(dir) < 0)
		return;
	char parent[512];
	snprintf(parent, sizeof(parent), "%s", dir);
	char *slash = strrchr(parent, '/');
	if (slash) {
		*slash = 0;
		rmdir(parent);
	}
}

void sandbox_destroy(struct sandbox *sb)
{
	if (sb->mem_dir[0])
		rmdir_with_parent(sb->mem_dir);
	if (sb->pids_dir[0] && strcmp(sb->pids_dir, sb->mem_dir))
		rmdir_with_parent(sb->pids_dir);
}

static void reap_dir(const char *base)
{
	DIR *d = opendir(base);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		int pid;
		if (sscanf(e->d_name, "h%d-", &pid) != 1 || rb_process_alive(pid, NULL))
			continue;
		struct sandbox sb = { .version = 1 };
		snprintf(sb.mem_dir, sizeof(sb.mem_dir), "%s/%s", base, e->d_name);
		snprintf(sb.pids_dir, sizeof(sb.pids_dir), "%s", sb.mem_dir);
		sandbox_kill_all(&sb);
		rmdir(sb.mem_dir);
	}
	closedir(d);
	rmdir(base); /* left by a killed run; busy (and kept) while another runs */
}

void sandbox_reap_stale(void)
{
	char base[512];
	if (geteuid() != 0)
		return;
	const char *sub[] = { "memory/", "pids/", "" };
	for (size_t i = 0; i < ARRAY_SIZE(sub); i++) {
		snprintf(base, sizeof(base), CG "/%s%s", sub[i], cg_name());
		reap_dir(base);
	}
}

void sandbox_rlimits(const struct sandbox *sb)
{
	long mem_limit_mib = sb->mem_limit_mib, pids_max = sb->pids_max;
	struct rlimit core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &core);
	struct rlimit np = { (rlim_t)pids_max, (rlim_t)pids_max };
	setrlimit(RLIMIT_NPROC, &np); /* binding only for non-root users */
	if (sb->version)
		return; /* the memory cgroup caps the whole tree; RLIMIT_AS would
			 * also refuse a sanitizer's shadow reservation */
	/* Without a cgroup: one process may never map more than the point may use. */
	rlim_t as = ((rlim_t)mem_limit_mib << 20) + ((rlim_t)512 << 20);
	struct rlimit a = { as, as };
	setrlimit(RLIMIT_AS, &a);
}
