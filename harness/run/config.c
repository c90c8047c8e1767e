#include "config.h"
#include "stressng.h"
#include "util.h"
#include "collector.h"
#include "engine.h"
#include "kernel.h"
#include "external.h"
#include "sim.h"
#include "target.h"
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_MAX_BYTES (1 << 20)

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
	snprintf(c->variant, sizeof(c->variant), "avc");
	c->engine_pages = 100;
	c->bench_min_time_s = 0.05;
	c->vm_boot_timeout_s = 60;
	snprintf(c->reference_config, sizeof(c->reference_config), "configs/nightly-kernels.conf");
	snprintf(c->reference_metric, sizeof(c->reference_metric), "rmap_vmas_per_walk");
	c->cooldown_s = 0;
	for (int i = 0; collectors[i] && c->n_collectors < (int)ARRAY_SIZE(c->collectors); i++)
		snprintf(c->collectors[c->n_collectors++], sizeof(c->collectors[0]), "%s", collectors[i]->name);
	snprintf(c->pfm_events[0], sizeof(c->pfm_events[0]), "PAGE-FAULTS");
	snprintf(c->pfm_events[1], sizeof(c->pfm_events[1]), "CONTEXT-SWITCHES");
	snprintf(c->pfm_events[2], sizeof(c->pfm_events[2]), "CPU-MIGRATIONS");
	c->n_pfm_events = 3;
	static const char *const headline[] = { "jobs_per_min", "sys_pct", "rmap_vmas_per_walk" };
	for (size_t i = 0; i < ARRAY_SIZE(headline); i++)
		snprintf(c->headline_metrics[i], sizeof(c->headline_metrics[i]), "%s", headline[i]);
	c->n_headline_metrics = (int)ARRAY_SIZE(headline);
	c->trend_check_nights = 5;
	c->profile_hz = 499; /* lkp's perf-profile rate: off the timer tick's multiples */
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

/* "a, b, c" of a registry's names, for messages. */
static void names_of(char *buf, size_t len, const char *(*name)(int i))
{
	buf[0] = 0;
	for (int i = 0; name(i); i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", name(i));
}

static const char *workload_name(int i)
{
	int nw = 0;
	while (workloads[nw])
		nw++;
	return i < nw ? workloads[i]->name : external_workloads[i - nw] ? external_workloads[i - nw]->name : NULL;
}

static const char *collector_name(int i)
{
	return collectors[i] ? collectors[i]->name : NULL;
}

static int set_workloads(struct config *c, char *val, char *err, size_t errlen)
{
	char *tok[CFG_MAX_LIST], names[300];
	int n = split(val, tok, (int)ARRAY_SIZE(c->workloads));
	if (n <= 0) {
		snprintf(err, errlen, n ? "at most %zu workloads" : "no workload named", ARRAY_SIZE(c->workloads));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!workload_find(tok[i]) && !external_workload_find(tok[i])) {
			names_of(names, sizeof(names), workload_name);
			snprintf(err, errlen, "unknown workload '%s' (%s)", tok[i], names);
			return -1;
		}
		snprintf(c->workloads[i], sizeof(c->workloads[i]), "%s", tok[i]);
	}
	c->n_workloads = n;
	return 0;
}

/* The vm part's workloads: checked as workloads are, kept apart. */
static int set_vm_workloads(struct config *c, char *val, char *err, size_t errlen)
{
	struct config probe;
	config_defaults(&probe);
	if (set_workloads(&probe, val, err, errlen) < 0)
		return -1;
	memcpy(c->vm_workloads, probe.workloads, sizeof(c->vm_workloads));
	c->n_vm_workloads = probe.n_workloads;
	return 0;
}

/* A list of integers in [lo, hi], at most cap of them, into out[], *n. */
static int set_long_list(char *val, long *out, int cap, long lo, long hi, int *n, char *err, size_t errlen)
{
	char *tok[CFG_MAX_LIST];
	int k = split(val, tok, cap < CFG_MAX_LIST ? cap : CFG_MAX_LIST);
	if (k < 0) {
		snprintf(err, errlen, "at most %d values", cap);
		return -1;
	}
	for (int i = 0; i < k; i++)
		if (parse_long(tok[i], lo, hi, &out[i], err, errlen) < 0)
			return -1;
	*n = k;
	return 0;
}

static int set_users(struct config *c, char *val, char *err, size_t errlen)
{
	char *tok[CFG_MAX_LIST];
	int n = split(val, tok, CFG_MAX_LIST);
	if (n <= 0) {
		snprintf(err, errlen, n ? "at most %d users points" : "no users points", CFG_MAX_LIST);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (parse_long(tok[i], 1, 1000000, &c->users[i], err, errlen) < 0)
			return -1;
	c->n_users = n;
	return 0;
}

static int set_collectors(struct config *c, char *val, char *err, size_t errlen)
{
	char *tok[CFG_MAX_LIST], names[200];
	int n = split(val, tok, (int)ARRAY_SIZE(c->collectors));
	if (n < 0) {
		snprintf(err, errlen, "too many collectors");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!collector_find(tok[i])) {
			names_of(names, sizeof(names), collector_name);
			snprintf(err, errlen, "unknown collector '%s' (%s)", tok[i], names);
			return -1;
		}
		snprintf(c->collectors[i], sizeof(c->collectors[i]), "%s", tok[i]);
	}
	c->n_collectors = n;
	return 0;
}

static int set_engine_children(struct config *c, char *val, char *err, size_t errlen)
{
	return set_long_list(val, c->engine_children, (int)ARRAY_SIZE(c->engine_children), 1, 100000,
			     &c->n_engine_children, err, errlen);
}

/* Kernels into out[max]: a label names kernels/LABEL.kernel; git:PATH@REV
 * a commit of a tree, only read (build-git.sh builds in our cache). */
static int set_labels(char *val, char (*out)[KERNEL_SPEC_MAX], int max, int *n_out, char *err, size_t errlen)
{
	char *tok[CFG_MAX_LIST];
	int n = split(val, tok, max);
	if (n < 0) {
		snprintf(err, errlen, "at most %d kernels", max);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (strlen(tok[i]) >= KERNEL_SPEC_MAX ||
		    !kernel_spec_ok(tok[i])) {
			snprintf(err, errlen,
				 "'%.300s' is not a kernel label (letters, digits, '.', '_', '-') or git:PATH@REV, "
				 "either with +debug or not",
				 tok[i]);
			return -1;
		}
		snprintf(out[i], KERNEL_SPEC_MAX, "%s", tok[i]);
	}
	*n_out = n;
	return 0;
}

/* stress-ng runs as root: only what its table allows (stressng.c) */
static int set_stress_ng(struct config *c, char *val, char *err, size_t errlen)
{
	if (stressng_args_check(val, err, errlen) < 0)
		return -1;
	snprintf(c->stress_ng, sizeof(c->stress_ng), "%s", val);
	return 0;
}

static int set_vm_kernels(struct config *c, char *val, char *err, size_t errlen)
{
	return set_labels(val, c->vm_kernels, (int)ARRAY_SIZE(c->vm_kernels), &c->n_vm_kernels, err, errlen);
}

static int set_reference_kernels(struct config *c, char *val, char *err, size_t errlen)
{
	int n = 0;
	if (set_labels(val, c->reference_kernels, 2, &n, err, errlen) < 0)
		return -1;
	if (n != 0 && n != 2) {
		snprintf(err, errlen, "two kernels, the good A and the known-bad B (or none)");
		return -1;
	}
	c->n_reference_kernels = n;
	return 0;
}

static int set_vm_users(struct config *c, char *val, char *err, size_t errlen)
{
	return set_long_list(val, c->vm_users, (int)ARRAY_SIZE(c->vm_users), 1, 30000, &c->n_vm_users, err, errlen);
}

static int set_variant(struct config *c, char *val, char *err, size_t errlen)
{
	if (!rmap_ops_find(val)) {
		char names[120] = "";
		for (int i = 0; rmap_variants[i]; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "",
				 rmap_variants[i]->name);
		snprintf(err, errlen, "unknown design '%s' (%s)", val, names);
		return -1;
	}
	snprintf(c->variant, sizeof(c->variant), "%s", val);
	return 0;
}

static int set_target(struct config *c, char *val, char *err, size_t errlen)
{
	if (!target_find(val)) {
		snprintf(err, errlen, "unknown target '%s' (%s)", val, target_names());
		return -1;
	}
	snprintf(c->target, sizeof(c->target), "%s", val);
	return 0;
}

static int set_headline_metrics(struct config *c, char *val, char *err, size_t errlen)
{
	char *tok[CFG_MAX_LIST];
	int n = split(val, tok, (int)ARRAY_SIZE(c->headline_metrics));
	if (n < 0) {
		snprintf(err, errlen, "at most %zu headline metrics", ARRAY_SIZE(c->headline_metrics));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		size_t n = strlen(tok[i]);
		if (n >= sizeof(c->headline_metrics[0]) || strspn(tok[i], "abcdefghijklmnopqrstuvwxyz0123456789_.") != n) {
			snprintf(err, errlen, "'%.60s' is not a metric name (lower case, digits, '_' and '.')", tok[i]);
			return -1;
		}
		snprintf(c->headline_metrics[i], sizeof(c->headline_metrics[i]), "%s", tok[i]);
	}
	c->n_headline_metrics = n;
	return 0;
}

static int set_pfm_events(struct config *c, char *val, char *err, size_t errlen)
{
	char *tok[CFG_MAX_LIST];
	int n = split(val, tok, (int)ARRAY_SIZE(c->pfm_events));
	if (n < 0) {
		snprintf(err, errlen, "at most %zu pfm events", ARRAY_SIZE(c->pfm_events));
		return -1;
	}
	for (int i = 0; i < n; i++)
		snprintf(c->pfm_events[i], sizeof(c->pfm_events[i]), "%s", tok[i]);
	c->n_pfm_events = n;
	return 0;
}

/* The harness's keys, one row each: where the value goes and what it may
 * be. Any other key is a workload parameter (workloads/params.c). */
enum key_kind { K_TEXT, K_FILE, K_CHOICE, K_LONG, K_INT, K_DOUBLE, K_LIST };
static int from_cli; /* config_set: the user's own command line */

static const struct key {
	const char *name;
	enum key_kind kind;
	size_t off, size;
	double lo, hi;                     /* K_LONG, K_INT, K_DOUBLE */
	const char *const *choices;        /* K_CHOICE */
	int (*set)(struct config *c, char *val, char *err, size_t errlen); /* K_LIST */
	bool required;                     /* K_TEXT: not empty */
} keys[] = {
#define AT(field) offsetof(struct config, field), sizeof(((struct config *)0)->field)
	{ "name", K_TEXT, AT(name), 0, 0, NULL, NULL, false },
	{ "description", K_TEXT, AT(description), 0, 0, NULL, NULL, false },
	{ "target", K_LIST, 0, 0, 0, 0, NULL, set_target, false },
	{ "workloads", K_LIST, 0, 0, 0, 0, NULL, set_workloads, false },
	{ "workload", K_LIST, 0, 0, 0, 0, NULL, set_workloads, false },
	{ "users", K_LIST, 0, 0, 0, 0, NULL, set_users, false },
	{ "repetitions", K_INT, AT(repetitions), 1, 1000, NULL, NULL, false },
	{ "mem_limit_mib", K_LONG, AT(mem_limit_mib), 0, 1L << 22, NULL, NULL, false },
	{ "pids_max", K_LONG, AT(pids_max), 0, 4194304, NULL, NULL, false },
	{ "swap_mib", K_LONG, AT(swap_mib), 0, 65536, NULL, NULL, false },
	{ "stress_ng", K_LIST, 0, 0, 0, 0, NULL, set_stress_ng, false },
	{ "walk_calibration", K_FILE, AT(walk_calibration), 0, 0, NULL, NULL, false },
	{ "collectors", K_LIST, 0, 0, 0, 0, NULL, set_collectors, false },
	{ "pfm_events", K_LIST, 0, 0, 0, 0, NULL, set_pfm_events, false },
	{ "point_timeout_s", K_DOUBLE, AT(point_timeout_s), 1, 86400, NULL, NULL, false },
	{ "kernel", K_TEXT, AT(kernel), 0, 0, NULL, NULL, true },
	{ "vm_mem_mib", K_LONG, AT(vm_mem_mib), 64, 1L << 20, NULL, NULL, false },
	{ "vm_cpus", K_INT, AT(vm_cpus), 1, 64, NULL, NULL, false },
	{ "vm_zram_mib", K_LONG, AT(vm_zram_mib), 0, 1L << 20, NULL, NULL, false },
	{ "vm_accel", K_CHOICE, AT(vm_accel), 0, 0, known_accels, NULL, false },
	{ "vm_boot_timeout_s", K_DOUBLE, AT(vm_boot_timeout_s), 1, 86400, NULL, NULL, false },
	{ "vm_timeout_s", K_DOUBLE, AT(vm_timeout_s), 0, 86400, NULL, NULL, false },
	{ "vm_cmdline", K_TEXT, AT(vm_cmdline), 0, 0, NULL, NULL, false },
	{ "cooldown_s", K_DOUBLE, AT(cooldown_s), 0, 3600, NULL, NULL, false },
	{ "stop_after_crossing", K_INT, AT(stop_after_crossing), 0, 1, NULL, NULL, false },
	{ "refine_crossover", K_INT, AT(refine_crossover), 0, 10, NULL, NULL, false },
	{ "variant", K_LIST, 0, 0, 0, 0, NULL, set_variant, false },
	{ "engine_children", K_LIST, 0, 0, 0, 0, NULL, set_engine_children, false },
	{ "engine_pages", K_LONG, AT(engine_pages), 1, 100000, NULL, NULL, false },
	{ "bench_repetitions", K_INT, AT(bench_repetitions), 0, 1000, NULL, NULL, false },
	{ "bench_min_time_s", K_DOUBLE, AT(bench_min_time_s), 0.001, 60, NULL, NULL, false },
	{ "vm_workloads", K_LIST, 0, 0, 0, 0, NULL, set_vm_workloads, false },
	{ "vm_kernels", K_LIST, 0, 0, 0, 0, NULL, set_vm_kernels, false },
	{ "vm_users", K_LIST, 0, 0, 0, 0, NULL, set_vm_users, false },
	{ "reference_kernels", K_LIST, 0, 0, 0, 0, NULL, set_reference_kernels, false },
	{ "reference_config", K_FILE, AT(reference_config), 0, 0, NULL, NULL, false },
	{ "reference_metric", K_TEXT, AT(reference_metric), 0, 0, NULL, NULL, false },
	{ "profile", K_INT, AT(profile), 0, 1, NULL, NULL, false },
	{ "profile_hz", K_INT, AT(profile_hz), 1, 10000, NULL, NULL, false },
	{ "headline_metrics", K_LIST, 0, 0, 0, 0, NULL, set_headline_metrics, false },
	{ "trend_check_nights", K_INT, AT(trend_check_nights), 1, 100000, NULL, NULL, false },
#undef AT
};

static int set_param(struct config *c, const char *key, char *val, char *err, size_t errlen)
{
	/* A workload parameter, or the simulated machine's (sim_*): checked
	 * by their own tables. */
	struct wl_params probe;
	struct sim_params sprobe;
	char why[200];
	wl_params_default(&probe);
	sim_params_default(&sprobe);
	if (sim_param_known(key) ? sim_params_set(&sprobe, key, val, why, sizeof(why)) < 0
				 : wl_params_set(&probe, key, val, why, sizeof(why)) < 0) {
		size_t kl = strlen(key);
		if (!strncmp(why, "unknown parameter", 17))
			snprintf(err, errlen, "unknown key '%s'", key);
		else /* the line's key is said once, by parse_line */
			snprintf(err, errlen, "%s", !strncmp(why, key, kl) && !strncmp(why + kl, ": ", 2) ? why + kl + 2 : why);
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
	return 0;
}

static int set_key(struct config *c, const char *key, char *val, char *err, size_t errlen)
{
	const struct key *k = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(keys) && !k; i++)
		if (!strcmp(keys[i].name, key))
			k = &keys[i];
	if (!k)
		return set_param(c, key, val, err, errlen);
	char *field = (char *)c + k->off;
	long l;
	switch (k->kind) {
	case K_FILE:
		/* A file root reads, named by a config that may come from
		 * elsewhere: one inside the checkout (a relative path, no '..'),
		 * lest a parse error quote a line of /etc/shadow. The command
		 * line (--set) is the user's own, and may name any. */
		if (!from_cli && *val) {
			size_t n = strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-");
			if (val[0] == '/' || val[n] || !strcmp(val, "..") || !strncmp(val, "../", 3) || strstr(val, "/../") ||
			    (strlen(val) >= 3 && !strcmp(val + strlen(val) - 3, "/.."))) {
				snprintf(err, errlen,
					 "'%.80s' is not a file of the checkout (a relative path of letters, digits and "
					 "._/-, no '..'; --set may name any)",
					 val);
				return -1;
			}
		}
		/* fall through */
	case K_TEXT:
		if (k->required && !*val) {
			snprintf(err, errlen, "a value is required");
			return -1;
		}
		if (strlen(val) >= k->size) {
			snprintf(err, errlen, "longer than %zu characters", k->size - 1);
			return -1;
		}
		snprintf(field, k->size, "%s", val);
		return 0;
	case K_CHOICE:
		if (!in_list(k->choices, val)) {
			char names[120] = "";
			for (int i = 0; k->choices[i]; i++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "",
					 k->choices[i]);
			snprintf(err, errlen, "unknown %s '%s' (%s)", k->name, val, names);
			return -1;
		}
		snprintf(field, k->size, "%s", val);
		return 0;
	case K_LONG:
		return parse_long(val, (long)k->lo, (long)k->hi, (long *)(void *)field, err, errlen);
	case K_INT:
		if (parse_long(val, (long)k->lo, (long)k->hi, &l, err, errlen) < 0)
			return -1;
		*(int *)(void *)field = (int)l;
		return 0;
	case K_DOUBLE:
		return parse_double(val, k->lo, k->hi, (double *)(void *)field, err, errlen);
	case K_LIST:
		return k->set(c, val, err, errlen);
	}
	return -1;
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
	for (const char *p = val; *p; p++) {
		/* a value goes into argv and the guest's plan, a line each */
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			snprintf(err, errlen, "%s: a control character (0x%02x) in the value", key, (unsigned char)*p);
			return -1;
		}
	}
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

void config_copy(struct config *dst, const struct config *src)
{
	*dst = *src;
	dst->text = src->text ? strdup(src->text) : NULL;
	if (src->text && !dst->text)
		abort();
}

void config_note(struct config *c, const char *fmt, ...)
{
	char line[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	append_text(c, line);
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
	char *text = rb_read_regular_file_max(path, CONFIG_MAX_BYTES, &len);
	if (!text) {
		if (errno == EFBIG)
			snprintf(err, errlen, "%s: larger than %d KiB: not a suite", path, CONFIG_MAX_BYTES >> 10);
		else if (errno == EINVAL)
			snprintf(err, errlen, "%s: not a regular file (a FIFO or a device is not a suite)", path);
		else
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
	for (const char *p = kv; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) { /* not echoed: it would break the line */
			snprintf(err, errlen, "--set %.*s: a control character (0x%02x) in the value",
				 (int)strcspn(kv, "=\n\r\t"), kv, (unsigned char)*p);
			return -1;
		}
	}
	if (strlen(kv) + sizeof("  # --set\n") > sizeof(line)) { /* never cut: the last value would change */
		snprintf(err, errlen, "--set %.*s: longer than %zu characters", (int)strcspn(kv, "="), kv,
			 sizeof(line) - sizeof("  # --set\n"));
		return -1;
	}
	snprintf(line, sizeof(line), "%s", kv);
	from_cli = 1;
	int bad = parse_line(c, line, msg, sizeof(msg)) < 0;
	from_cli = 0;
	if (bad) {
		snprintf(err, errlen, "--set %s: %s", kv, msg);
		return -1;
	}
	snprintf(line, sizeof(line), "%s  # --set\n", kv);
	append_text(c, line);
	return 0;
}

/* What only the whole config can say: the users its target takes (a
 * host or vm point forks a process a user, under pid_max). */
static int config_check(const struct config *c, char *err, size_t errlen)
{
	const struct target *t = target_find(c->target);
	for (int i = 0; t && i < c->n_users; i++)
		if (t->max_users && c->users[i] > t->max_users) {
			snprintf(err, errlen, "%s: users: %ld is above %ld, the most a %s point takes (a process a user, "
				 "under pid_max); target = engine takes up to 1000000", c->path, c->users[i], t->max_users,
				 c->target);
			return -1;
		}
	return 0;
}

int config_load_set(struct config *c, const char *path, const char *const *sets, int nsets, char *err, size_t errlen)
{
	config_defaults(c);
	if (config_load(c, path, err, errlen) < 0)
		return -1;
	for (int i = 0; i < nsets; i++)
		if (config_set(c, sets[i], err, errlen) < 0)
			return -1;
	return config_check(c, err, errlen);
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
