/* Suites: `key = value` lines, '#' comments. Errors are "FILE:LINE: msg".
 * Harness keys are listed in config.c; any workload parameter (see
 * workloads/params.c) may be set too and is passed to every point. */
#ifndef RMAPBENCH_CONFIG_H
#define RMAPBENCH_CONFIG_H

#include <stddef.h>

#include "kernel.h"

#define CFG_MAX_LIST 64
#define CFG_MAX_PARAMS 32

struct config {
	char path[1024];
	char name[64];
	char description[256];
	char target[16];
	char workloads[8][32];
	int n_workloads;
	long users[CFG_MAX_LIST];
	int n_users;
	int repetitions;
	long mem_limit_mib;   /* 0: half of MemTotal */
	long pids_max;        /* 0: 2 x users + 64, capped below pid_max */
	long swap_mib;        /* > 0: a swap file for the run, undone after */
	char stress_ng[256];  /* companion stress-ng arguments, "" for none */
	/* target engine: the walk calibration file to charge walks by (a
	 * shipped reference); "" for this host's, measured when missing */
	char walk_calibration[256];
	char collectors[16][16];
	int n_collectors;
	char pfm_events[16][48];
	int n_pfm_events;
	/* the profile collector, opt-in: kernel stacks sampled at profile_hz
	 * on every CPU in the middle half of each point */
	int profile;
	int profile_hz;
	double point_timeout_s;
	/* target = vm */
	char kernel[KERNEL_SPEC_MAX]; /* a kernels/LABEL.kernel recipe, git:PATH@REV, or an image path */
	long vm_mem_mib;      /* guest RAM: the memory pressure */
	int vm_cpus;
	long vm_zram_mib;     /* swap on zram in the guest; 0 for none */
	char vm_accel[8];     /* auto | kvm | tcg */
	char vm_cmdline[256]; /* added to the kernel command line */
	double vm_timeout_s;  /* the guest watchdog; 0: point_timeout_s + 120 */
	double vm_boot_timeout_s; /* the agent's first frame must come by then */
	double cooldown_s;
	/* a users sweep that looks for AIM7's crossover: the points above the
	 * first one at or below the line are skipped, and refine_crossover
	 * more are bisected between it and the point before */
	int stop_after_crossing;
	int refine_crossover;
	/* the engine part of a suite (the nightly): walkcost of the design
	 * `variant` at engine_children N, engine_pages pages each */
	char variant[16];
	long engine_children[16];
	int n_engine_children;
	long engine_pages;
	/* ... and its engine benchmarks: those of `variant`, this many
	 * repetitions (0: none), each at least bench_min_time_s */
	int bench_repetitions;
	double bench_min_time_s;
	/* ... and its vm part: vm_workloads (else the suite's) at vm_users in
	 * a guest of each kernel in vm_kernels (where QEMU is installed) */
	char vm_workloads[8][32];
	int n_vm_workloads;
	char vm_kernels[4][KERNEL_SPEC_MAX];
	int n_vm_kernels;
	long vm_users[8];
	int n_vm_users;
	/* ... and its positive control: reference_config run in a guest of
	 * each of reference_kernels (a good A, a known-bad B), which must
	 * come out as a regression of reference_metric */
	char reference_kernels[2][KERNEL_SPEC_MAX];
	int n_reference_kernels;
	char reference_config[256];
	char reference_metric[64];
	/* the trend page: the metrics always drawn, and how recent a change
	 * point must be for `trend --check` to fail on it */
	char headline_metrics[8][48];
	int n_headline_metrics;
	int trend_check_nights;
	char tag[16];         /* "nightly" for its runs; not a key */
	int shard_index, shard_count; /* --shard i/n: this run's points (1-based; 0/0: all) */
	int dry_run;          /* --dry-run: print the plan, run and record nothing */
	char params[CFG_MAX_PARAMS][2][64]; /* workload key, value */
	int n_params;
	char *text;           /* the config as read, plus any --set lines */
};

void config_defaults(struct config *c);
/* 0 or -1 with "file:line: message" in err. */
int config_load(struct config *c, const char *path, char *err, size_t errlen);
int config_parse_text(struct config *c, const char *origin, const char *text, char *err, size_t errlen);
/* Applies "KEY=VALUE" from --set; err names the flag. */
int config_set(struct config *c, const char *kv, char *err, size_t errlen);
/* config_defaults, then PATH, then each --set in order; -1 with the
 * first error (the config is to be freed either way). */
int config_load_set(struct config *c, const char *path, const char *const *sets, int nsets, char *err, size_t errlen);
int config_has_collector(const struct config *c, const char *name);
const char *config_param(const struct config *c, const char *key);
/* A copy of src for a part of its own (the nightly's vm part), changed
 * field by field; its text is its own. config_note appends a line of what
 * the part changed to the text recorded with its run. */
void config_copy(struct config *dst, const struct config *src);
void config_note(struct config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void config_free(struct config *c);

#endif
