#include "metrics.h"

#include <string.h>

/* The floors follow lkp's practice of ignoring what run-to-run noise makes
 * of a metric: 5% for throughput and times, 10% for lock figures, which
 * swing with scheduling; counts of the engine are exact. */
const struct metric_rule metric_rules[] = {
	{ "jobs_per_min", +1, 0.05, false, false, false, false },
	{ "jobs_per_min_per_user", +1, 0.05, false, false, false, false },
	{ "forks_per_s", +1, 0.05, false, false, false, false },
	{ "user_ops_per_s", +1, 0.05, false, false, false, false },
	{ "ops_per_s", +1, 0.05, false, false, false, false },
	{ "sys_pct", -1, 0.05, false, false, false, false },
	{ "sys_s", -1, 0.05, false, false, false, false },
	{ "wall_s", -1, 0.05, false, false, false, false },
	{ "iowait_pct", -1, 0.05, false, false, false, false },
	{ "sys_pct_1s_median", -1, 0.05, false, false, false, false },
	{ "iowait_pct_1s_median", -1, 0.05, false, false, false, false },
	{ "lock_contentions", -1, 0.10, false, false, false, false },
	{ "lock_wait_ns", -1, 0.10, false, false, false, false },
	{ "lockstat_anon_vma_contentions", -1, 0.10, false, false, false, false },
	{ "lockstat_anon_vma_wait_ns", -1, 0.10, false, false, false, false },
	{ "rmap_vmas_per_walk", -1, 0.05, true, false, false, false },
	{ "rmap_vmas_scanned_per_walk", -1, 0.05, true, false, false, false },
	{ "page_referenced_vmas_per_walk", -1, 0.05, true, false, false, false },
	{ "rmap_walks", 0, 0.05, true, false, false, false },
	{ "rmap_vmas_visited", -1, 0.05, true, false, false, false },
	{ "page_referenced_vmas_visited", -1, 0.05, true, false, false, false },
	{ "anon_vmas", 0, 0.05, true, false, false, false },
	{ "anon_vma_chains", 0, 0.05, true, false, false, false },
	{ "anon_pages", 0, 0.05, true, false, false, false },
	{ "faults", -1, 0, true, false, false, false },
	{ "bytes_per_page", -1, 0.05, true, false, false, false },
	{ "bytes_per_vma_with_chains", -1, 0.05, true, false, false, false },
	{ "peak_rss_bytes", -1, 0.10, false, false, false, false },
	/* the kernel's error reports (collect/collect_klog.c): any in B where
	 * A had none is a regression whatever the repetitions, as lkp and
	 * syzbot count a new dmesg error; in both, reported, not judged */
	{ "kernel_error_reports", -1, 0, false, false, true, false },
	/* the oopshunt workload's checks: a wrong page, or one the rmap lost,
	 * is the same finding as a kernel report */
	{ "oopshunt_wrong_pages", -1, 0, false, false, true, false },
	{ "oopshunt_unreclaimable_pages", -1, 0, false, false, true, false },
	/* Google Benchmark's repetitions (bench runs). Repetitions of one run
	 * agree more closely than two runs do (the heap's layout is one per
	 * run): A/A runs of the engine benchmarks minutes apart here differed
	 * by up to 24% on a row, every repetition apart, and the nightly test's
	 * A/A nights by up to 52% (README, "Verdicts"), hence a 60% floor; a
	 * design's walk differs by far more. A night that ran beside other
	 * work came out 2x slower: these rows are judged against their drift
	 * (verdict.h).
	 * real_time is the time
	 * it reports (the timed part, for manual time); cpu_time of a
	 * manual-time benchmark also holds its untimed setup, so it only says
	 * "changed"; the engine's counters are exact, the host's are not */
	{ "real_time", -1, 0.60, false, true, false, false },
	{ "cpu_time", 0, 0.60, false, true, false, false },
	{ "vmas_per_walk", -1, 0.05, true, false, false, false },
	{ "chains", 0, 0.05, true, false, false, false },
	{ "ns_per_fault", -1, 0.60, false, true, false, false },
	{ "child_sys_us", -1, 0.10, false, false, false, false },
	{ "child_user_us", -1, 0.10, false, false, false, false },
	/* the profile's shares (collect/collect_profile.c): where the time
	 * went, as lkp's perf-profile rows; no better direction (more time in
	 * a function can be less time waiting), a floor of 1 percentage point */
	{ "profile.*", 0, 1.0, false, false, false, true },
	{ "*_ns", -1, 0.05, false, false, false, false },
	/* a rate before a time: pages_read_per_s is not a duration */
	{ "*_per_s", +1, 0.05, false, false, false, false },
	{ "*_s", -1, 0.05, false, false, false, false },
	{ NULL, 0, 0, false, false, false, false },
};

static const struct metric_rule neutral = { "", 0, 0.05, false, false, false, false };

const struct metric_rule *metric_rule(const char *metric)
{
	for (const struct metric_rule *r = metric_rules; r->name; r++)
		if (r->name[0] != '*' && !strcmp(r->name, metric))
			return r;
	size_t n = strlen(metric);
	for (const struct metric_rule *r = metric_rules; r->name; r++) {
		size_t k = strlen(r->name) - 1;
		if (r->name[0] == '*' && n > k && !strcmp(metric + n - k, r->name + 1))
			return r;
		if (k && r->name[k] == '*' && n > k && !strncmp(metric, r->name, k))
			return r;
	}
	return &neutral;
}
