#include "config.h"
#include "util.h"
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Workloads that are not ours but run as points beside ours. */
static const char *const external_workloads[] = { "stress-ng-fork", NULL };
static const char *const known_collectors[] = { "cpu", "lock", "pfm", "vmstat", "rmap", NULL };
static const char *const known_targets[] = { "host", "vm", NULL };
static const char *const known_accels[] = { "auto", "kvm", "tcg", NULL };

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->target, sizeof(c->target), "host");
	snprintf(c->workloads[0], sizeof(c->workloads[0]), "aim7");
	c->n_workloads = 1;
	c->users[0] = 8;
	c->n_users = 1;
	c->repetitions = 1;
	c->point_timeout_s = 600;
	snprintf(c->kernel, sizeof(c->kernel), "stock");
	c->vm_mem_mib = 512;
	c->vm_cpus = 2;
	c->vm_zram_mib = 512;
	snprintf(c->vm_accel, sizeof(c->vm_accel), "auto");
	c->vm_boot_timeout_s = 60;
	c->cooldown_s = 0;
	for (int i = 0; known_collectors[i]; i++)
		snprintf(c->collectors[c->n_collectors++], sizeof(c->collectors[0]), "%s", known_collectors[i]);
	snprintf(c->pfm_events[0], sizeof(c->pfm_events[0]), "PAGE-FAULTS");
	snprintf(c->pfm_events[1], sizeof(c->pfm_events[1]), "CONTEXT-SWITCHES");
	snprintf(c->pfm_events[2], sizeof(c->pfm_events[2]), "CPU-MIGRATIONS");
	c->n_pfm_events = 3;
}

static int in_list(const char *const *list, const char *s)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

static int parse_long(const char *v, long lo, long hi, long *out, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || end == v || *end) {
		snprintf(err, errlen, "'%s' is not an integer", v);
		return -1;
	}
	if (x < lo || x > hi) {
		snprintf(err, errlen, "%ld is outside [%ld, %ld]", x, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}

static int parse_double(const char *v, double lo, double hi, double *out, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || end == v || *end || isnan(x)) {
		snprintf(err, errlen, "'%s' is not a number", v);
		return -1;
	}
	if (x < lo || x > hi) {
		snprintf(err, errlen, "%g is outside [%g, %g]", x, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}

/* Splits a list value on spaces and commas into tokens. */
static int split(char *v, char **tok, int max)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(v, " ,\t", &save); t; t = strtok_r(NULL, " ,\t", &save)) {
		if (n == max)
			return -1;
		tok[n++] = t;
	}
	return n;
}

static int set_key(struct config *c, const char *key, char *val, char *err, size_t errlen)
{
	char *tok[CFG_MAX_LIST];
	int n;
	long l;
	if (!strcmp(key, "name")) {
		snprintf(c->name, sizeof(c->name), "%s", val);
	} else if (!strcmp(key, "description")) {
		snprintf(c->description, sizeof(c->description), "%s", val);
	} else if (!strcmp(key, "target")) {
		if (!in_list(known_targets, val)) {
			snprintf(err, errlen, "unknown target '%s' (host, vm)", val);
			return -1;
		}
		snprintf(c->target, sizeof(c->target), "%s", val);
	} else if (!strcmp(key, "workloads") || !strcmp(key, "workload")) {
		n = split(val, tok, 8);
		if (n <= 0) {
			snprintf(err, errlen, n ? "at most 8 workloads" : "no workload named");
			return -1;
		}
		for (int i = 0; i < n; i++) {
			if (!workload_find(tok[i]) && !in_list(external_workloads, tok[i])) {
				snprintf(err, errlen, "unknown workload '%s' (aim7, forkstorm, cowstorm, reclaim, stress-ng-fork)",
					 tok[i]);
				return -1;
			}
			snprintf(c->workloads[i], sizeof(c->workloads[i]), "%s", tok[i]);
		}
		c->n_workloads = n;
	} else if (!strcmp(key, "users")) {
		n = split(val, tok, CFG_MAX_LIST);
		if (n <= 0) {
			snprintf(err, errlen, n ? "at most %d users points" : "no users points", CFG_MAX_LIST);
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (parse_long(tok[i], 1, 30000, &c->users[i], err, errlen) < 0)
				return -1;
		c->n_users = n;
	} else if (!strcmp(key, "repetitions")) {
		if (parse_long(val, 1, 1000, &l, err, errlen) < 0)
			return -1;
		c->repetitions = (int)l;
	} else if (!strcmp(key, "mem_limit_mib")) {
		return parse_long(val, 0, 1L << 22, &c->mem_limit_mib, err, errlen);
	} else if (!strcmp(key, "pids_max")) {
		return parse_long(val, 0, 4194304, &c->pids_max, err, errlen);
	} else if (!strcmp(key, "swap_mib")) {
		return parse_long(val, 0, 65536, &c->swap_mib, err, errlen);
	} else if (!strcmp(key, "stress_ng")) {
		snprintf(c->stress_ng, sizeof(c->stress_ng), "%s", val);
	} else if (!strcmp(key, "collectors")) {
		n = split(val, tok, 8);
		if (n < 0) {
			snprintf(err, errlen, "too many collectors");
			return -1;
		}
		for (int i = 0; i < n; i++) {
			if (!in_list(known_collectors, tok[i])) {
				snprintf(err, errlen, "unknown collector '%s' (cpu, lock, pfm, vmstat, rmap)", tok[i]);
				return -1;
			}
			snprintf(c->collectors[i], sizeof(c->collectors[i]), "%s", tok[i]);
		}
		c->n_collectors = n;
	} else if (!strcmp(key, "pfm_events")) {
		n = split(val, tok, 16);
		if (n < 0) {
			snprintf(err, errlen, "at most 16 pfm events");
			return -1;
		}
		for (int i = 0; i < n; i++)
			snprintf(c->pfm_events[i], sizeof(c->pfm_events[i]), "%s", tok[i]);
		c->n_pfm_events = n;
	} else if (!strcmp(key, "point_timeout_s")) {
		return parse_double(val, 1, 86400, &c->point_timeout_s, err, errlen);
	} else if (!strcmp(key, "kernel")) {
		if (!*val || strlen(val) >= sizeof(c->kernel)) {
			snprintf(err, errlen, "a kernel label (kernels/*.kernel) or an image path");
			return -1;
		}
		snprintf(c->kernel, sizeof(c->kernel), "%s", val);
	} else if (!strcmp(key, "vm_mem_mib")) {
		return parse_long(val, 64, 1L << 20, &c->vm_mem_mib, err, errlen);
	} else if (!strcmp(key, "vm_cpus")) {
		if (parse_long(val, 1, 64, &l, err, errlen) < 0)
			return -1;
		c->vm_cpus = (int)l;
	} else if (!strcmp(key, "vm_zram_mib")) {
		return parse_long(val, 0, 1L << 20, &c->vm_zram_mib, err, errlen);
	} else if (!strcmp(key, "vm_accel")) {
		if (!in_list(known_accels, val)) {
			snprintf(err, errlen, "unknown vm_accel '%s' (auto, kvm, tcg)", val);
			return -1;
		}
		snprintf(c->vm_accel, sizeof(c->vm_accel), "%s", val);
	} else if (!strcmp(key, "vm_boot_timeout_s")) {
		return parse_double(val, 1, 86400, &c->vm_boot_timeout_s, err, errlen);
	} else if (!strcmp(key, "vm_timeout_s")) {
		return parse_double(val, 0, 86400, &c->vm_timeout_s, err, errlen);
	} else if (!strcmp(key, "vm_cmdline")) {
		snprintf(c->vm_cmdline, sizeof(c->vm_cmdline), "%s", val);
	} else if (!strcmp(key, "cooldown_s")) {
		return parse_double(val, 0, 3600, &c->cooldown_s, err, errlen);
	} else {
		/* A workload parameter: checked by the workloads' own table. */
		struct wl_params probe;
		char why[200];
		wl_params_default(&probe);
		if (wl_params_set(&probe, key, val, why, sizeof(why)) < 0) {
			if (!strncmp(why, "unknown parameter", 17))
				snprintf(err, errlen, "unknown key '%s'", key);
			else
				snprintf(err, errlen, "%s", why);
			return -1;
		}
		int i;
		for (i = 0; i < c->n_params && strcmp(c->params[i][0], key); i++)
			;
		if (i == CFG_MAX_PARAMS) {
			snprintf(err, errlen, "too many workload parameters");
			return -1;
		}
		if (strlen(val) >= sizeof(c->params[i][1])) {
			snprintf(err, errlen, "value too long");
			return -1;
		}
		snprintf(c->params[i][0], sizeof(c->params[i][0]), "%s", key);
		snprintf(c->params[i][1], sizeof(c->params[i][1]), "%s", val);
		if (i == c->n_params)
			c->n_params++;
	}
	return 0;
}

/* One "key = value" line; returns -1 with the message (no location). */
static int parse_line(struct config *c, char *line, char *err, size_t errlen)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = 0;
	rb_trim(line);
	if (!*line)
		return 0;
	char *eq = strchr(line, '=');
	if (!eq) {
		snprintf(err, errlen, "expected 'key = value', got '%s'", line);
		return -1;
	}
	*eq = 0;
	char *key = rb_trim(line), *val = rb_trim(eq + 1);
	if (!*key) {
		snprintf(err, errlen, "missing key before '='");
		return -1;
	}
	char msg[300];
	if (set_key(c, key, val, msg, sizeof(msg)) < 0) {
		snprintf(err, errlen, "%s: %s", key, msg);
		if (!strncmp(msg, "unknown key", 11))
			snprintf(err, errlen, "%s", msg);
		return -1;
	}
	return 0;
}

static void append_text(struct config *c, const char *text)
{
	size_t old = c->text ? strlen(c->text) : 0, add = strlen(text);
	char *t = realloc(c->text, old + add + 2);
	if (!t)
		abort();
	memcpy(t + old, text, add + 1);
	if (add && text[add - 1] != '\n') {
		t[old + add] = '\n';
		t[old + add + 1] = 0;
	}
	c->text = t;
}

int config_parse_text(struct config *c, const char *origin, const char *text, char *err, size_t errlen)
{
	char *copy = strdup(text);
	int lineno = 0, rc = 0;
	if (!copy)
		abort();
	/* strtok_r would skip empty lines and so miscount them */
	for (char *line = copy, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		char msg[400];
		if (parse_line(c, line, msg, sizeof(msg)) < 0) {
			snprintf(err, errlen, "%s:%d: %s", origin, lineno, msg);
			rc = -1;
			break;
		}
	}
	free(copy);
	if (!rc)
		append_text(c, text);
	return rc;
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = rb_read_file(path, &len);
	if (!text) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (memchr(text, 0, len)) {
		snprintf(err, errlen, "%s: not a text file (it holds a NUL byte)", path);
		free(text);
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s", path);
	if (!c->name[0]) {
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		snprintf(c->name, sizeof(c->name), "%.*s", (int)strcspn(base, "."), base);
	}
	int rc = config_parse_text(c, path, text, err, errlen);
	free(text);
	return rc;
}

int config_set(struct config *c, const char *kv, char *err, size_t errlen)
{
	char line[512], msg[400];
	if (!strchr(kv, '=')) {
		snprintf(err, errlen, "--set %s: expected KEY=VALUE", kv);
		return -1;
	}
	snprintf(line, sizeof(line), "%s", kv);
	if (parse_line(c, line, msg, sizeof(msg)) < 0) {
		snprintf(err, errlen, "--set %s: %s", kv, msg);
		return -1;
	}
	snprintf(line, sizeof(line), "%s  # --set\n", kv);
	append_text(c, line);
	return 0;
}

int config_has_collector(const struct config *c, const char *name)
{
	for (int i = 0; i < c->n_collectors; i++)
		if (!strcmp(c->collectors[i], name))
			return 1;
	return 0;
}

const char *config_param(const struct config *c, const char *key)
{
	for (int i = 0; i < c->n_params; i++)
		if (!strcmp(c->params[i][0], key))
			return c->params[i][1];
	return NULL;
}

void config_free(struct config *c)
{
	free(c->text);
	c->text = NULL;
}
