#include "stressng.h"
#include "sandbox.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int stressng_version(char *buf, size_t len)
{
	char out[256];
	char *argv[] = { "stress-ng", "--version", NULL };
	if (rb_capture(argv, out, sizeof(out)) != 0)
		return -1;
	/* "stress-ng, version 0.15.06 (gcc ..." */
	const char *v = strstr(out, "version ");
	snprintf(buf, len, "%.*s", v ? (int)strcspn(v + 8, " ") : 0, v ? v + 8 : "");
	return v ? 0 : -1;
}

static void metric_name(char *buf, size_t len, const char *stressor, const char *what)
{
	snprintf(buf, len, "stressng_%s_%s", stressor, what);
	for (char *p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
}

int stressng_parse_yaml(const char *path, struct sample_set *out, int forks_as)
{
	char *s = rb_read_file_max(path, 1 << 20, NULL);
	if (!s)
		return -1;
	int rc = stressng_parse_yaml_text(s, out, forks_as);
	free(s);
	return rc;
}

int stressng_parse_yaml_text(char *s, struct sample_set *out, int forks_as)
{
	char stressor[64] = "";
	int found = 0;
	for (char *save = NULL, *line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[96], val[128], name[160];
		rb_trim(line);
		if (sscanf(line, "- stressor: %63s", stressor) == 1)
			continue;
		if (sscanf(line, "stress-ng-version: %127s", val) == 1) {
			ss_attr(out, "stress_ng_version", "%s", val);
			continue;
		}
		if (!stressor[0] || sscanf(line, "%95[^:]: %127s", key, val) != 2)
			continue;
		double v = strtod(val, NULL);
		if (!strcmp(key, "bogo-ops")) {
			metric_name(name, sizeof(name), stressor, "bogo_ops");
			ss_add(out, name, v, "ops");
			if (forks_as && !strcmp(stressor, "fork"))
				ss_add(out, "forks", v, "forks");
			found = 1;
		} else if (!strcmp(key, "bogo-ops-per-second-real-time")) {
			metric_name(name, sizeof(name), stressor, "bogo_ops_per_s");
			ss_add(out, name, v, "ops/s");
			if (forks_as && !strcmp(stressor, "fork"))
				ss_add(out, "forks_per_s", v, "forks/s");
		} else if (!strcmp(key, "bogo-ops-per-second-usr-sys-time")) {
			metric_name(name, sizeof(name), stressor, "bogo_ops_per_cpu_s");
			ss_add(out, name, v, "ops/s");
		}
	}
	return found ? 0 : -1;
}

/* What a companion may be told. A stressor takes its count of workers;
 * every other option takes a number, a size or a method's name, or
 * nothing. Nothing here names a file (--log-file, --yaml, --temp-path,
 * --job, ...), and --timeout and the YAML output are the harness's. */
enum sng_arg { SNG_COUNT, SNG_SIZE, SNG_NAME, SNG_FLAG };
static const struct {
	const char *name;
	enum sng_arg arg;
} sng_table[] = {
	{ "--cpu", SNG_COUNT },	      { "--vm", SNG_COUNT },	      { "--fork", SNG_COUNT },
	{ "--vfork", SNG_COUNT },     { "--clone", SNG_COUNT },       { "--malloc", SNG_COUNT },
	{ "--mmap", SNG_COUNT },      { "--brk", SNG_COUNT },	      { "--stack", SNG_COUNT },
	{ "--bigheap", SNG_COUNT },   { "--memcpy", SNG_COUNT },      { "--pipe", SNG_COUNT },
	{ "--switch", SNG_COUNT },    { "--madvise", SNG_COUNT },     { "--mremap", SNG_COUNT },
	{ "--cpu-load", SNG_COUNT },  { "--cpu-ops", SNG_COUNT },     { "--vm-ops", SNG_COUNT },
	{ "--fork-ops", SNG_COUNT },  { "--fork-max", SNG_COUNT },    { "--vm-hang", SNG_COUNT },
	{ "--vm-bytes", SNG_SIZE },   { "--mmap-bytes", SNG_SIZE },   { "--malloc-bytes", SNG_SIZE },
	{ "--bigheap-growth", SNG_SIZE }, { "--cpu-method", SNG_NAME }, { "--vm-method", SNG_NAME },
	{ "--vm-keep", SNG_FLAG },    { "--vm-populate", SNG_FLAG },  { "--vm-madvise", SNG_NAME },
	{ "--fork-vm", SNG_FLAG },    { "--oomable", SNG_FLAG },      { "--page-in", SNG_FLAG },
	{ "--mmap-async", SNG_FLAG }, { "--mmap-file", SNG_FLAG },
};

/* A count (digits), a size (digits, then at most one of b k m g or %), or
 * a method's name (letters, digits, '-' and '_', a letter first). */
static int sng_value_ok(enum sng_arg kind, const char *v)
{
	size_t n = strspn(v, "0123456789");
	if (kind == SNG_COUNT)
		return n > 0 && n < 10 && !v[n];
	if (kind == SNG_SIZE)
		return n > 0 && n < 13 && (!v[n] || (strchr("bBkKmMgG%", v[n]) && !v[n + 1]));
	if (!((v[0] >= 'a' && v[0] <= 'z') || (v[0] >= 'A' && v[0] <= 'Z')))
		return 0;
	size_t l = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_");
	return !v[l] && l < 32;
}

int stressng_args_check(const char *args, char *why, size_t len)
{
	char copy[256];
	if (strlen(args) >= sizeof(copy)) {
		snprintf(why, len, "longer than %zu characters", sizeof(copy) - 1);
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s", args);
	int words = 0, stressors = 0;
	for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		size_t i = 0;
		while (i < ARRAY_SIZE(sng_table) && strcmp(sng_table[i].name, t))
			i++;
		if (i == ARRAY_SIZE(sng_table)) {
			snprintf(why, len,
				 "'%.40s' is not an option a companion may be given (stressors with a count, such as "
				 "--vm 1 --vm-bytes 70%%; nothing that names a file; --timeout is the harness's)",
				 t);
			return -1;
		}
		if (++words > 20) {
			snprintf(why, len, "more than 20 options");
			return -1;
		}
		stressors += sng_table[i].arg == SNG_COUNT && !strchr(t + 2, '-');
		if (sng_table[i].arg == SNG_FLAG)
			continue;
		const char *v = strtok_r(NULL, " \t", &save);
		if (!v || !sng_value_ok(sng_table[i].arg, v)) {
			snprintf(why, len, "%s takes %s, not '%.40s'", t,
				 sng_table[i].arg == SNG_COUNT  ? "a whole number"
				 : sng_table[i].arg == SNG_SIZE ? "a size (digits, then b, k, m, g or %)"
								: "a method's name",
				 v ? v : "nothing");
			return -1;
		}
	}
	if (words && !stressors) {
		snprintf(why, len, "no stressor: name one with its count (--cpu 1, --vm 1, --fork 2, ...)");
		return -1;
	}
	return 0;
}

int companion_start(struct companion *c, const char *args, const char *yaml, double timeout_s, struct sandbox *sb)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->yaml, sizeof(c->yaml), "%s", yaml);
	snprintf(c->args, sizeof(c->args), "%s", args);
	char timeout[32], copy[256];
	snprintf(timeout, sizeof(timeout), "%.0fs", timeout_s);
	snprintf(copy, sizeof(copy), "%s", args);
	char *argv[48];
	int n = 0;
	argv[n++] = "stress-ng";
	for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t && n < 40; t = strtok_r(NULL, " \t", &save))
		argv[n++] = t;
	argv[n++] = "--timeout";
	argv[n++] = timeout;
	argv[n++] = "-Y";
	argv[n++] = c->yaml;
	argv[n++] = "--metrics-brief";
	argv[n] = NULL;
	pid_t parent = getpid();
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (c->pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		/* into the point's cgroup before it forks a stressor */
		if (sb && sandbox_attach(sb, getpid()) < 0)
			_exit(126);
		setpriority(PRIO_PROCESS, 0, 0);
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execvp("stress-ng", argv);
		_exit(127);
	}
	setpgid(c->pid, c->pid);
	return 0;
}

int companion_stop(struct companion *c, struct sample_set *out)
{
	if (c->pid <= 0)
		return 0;
	int st = 0, early = 0;
	/* one that ended before it was told to has failed, whatever it says */
	pid_t done = waitpid(c->pid, &st, WNOHANG);
	if (done == c->pid) {
		early = 1;
		goto reaped;
	}
	/* SIGINT lets stress-ng stop its stressors and write its YAML */
	kill(c->pid, SIGINT);
	for (int i = 0; i < 200; i++) {
		pid_t r = waitpid(c->pid, &st, WNOHANG);
		if (r == c->pid || (r < 0 && errno != EINTR))
			break;
		usleep(50000);
		if (i == 199) {
			killpg(c->pid, SIGKILL);
			waitpid(c->pid, &st, 0);
		}
	}
reaped:
	killpg(c->pid, SIGKILL); /* any stressor that outlived its parent */
	ss_attr(out, "stress_ng_args", "%s", c->args);
	if (stressng_parse_yaml(c->yaml, out, 0) < 0)
		ss_unavailable(out, "stressng_bogo_ops", "stress-ng wrote no metrics (exit status %d)",
			       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	unlink(c->yaml);
	c->pid = 0;
	int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (early || status != 0) {
		snprintf(c->why, sizeof(c->why), "the stress-ng companion (%s) %s with status %d", c->args,
			 early ? "ended before the point did" : "exited", status);
		return -1;
	}
	return 0;
}
