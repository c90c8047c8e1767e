/* Each collector, on its measuring path and on its unavailable path. The
 * /proc and /sys files are faked under RMAPBENCH_SYSROOT where the point is
 * the arithmetic; the real kernel is used where the point is the syscall. */
#include "collector.h"
#include "lockstat.h"
#include "tap.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[] = "/tmp/rmapbench-sys-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = 0;
	rb_mkdir_p(dir);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void drop(const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	unlink(path);
}

static const struct sample *get(struct sample_set *s, const char *m)
{
	return ss_find(s, m);
}

static int value_is(struct sample_set *s, const char *m, double want)
{
	const struct sample *x = get(s, m);
	return x && !x->unavailable && fabs(x->value - want) < 1e-6 * (fabs(want) + 1);
}

static int unavailable_with(struct sample_set *s, const char *m, const char *why)
{
	const struct sample *x = get(s, m);
	return x && x->unavailable && strstr(x->reason, why);
}

static void test_cpu(void)
{
	struct sample_set ss = { 0 };
	struct coll_ctx c = { .out = &ss };
	put("/proc/stat", "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3\n");
	coll_cpu.start(&c);
	put("/proc/stat", "cpu  200 0 140 900 50 5 5 0 0 0\n");
	c.ru.ru_stime.tv_sec = 1;
	c.ru.ru_stime.tv_usec = 500000;
	c.wall_s = 2.0;
	coll_cpu.stop(&c);
	/* deltas: user 100, system 90 + irq 5 + softirq 5, idle 100: total 300 */
	CHECK(value_is(&ss, "sys_pct", 100.0 / 3), "sys_pct from /proc/stat deltas includes irq time");
	CHECK(value_is(&ss, "user_pct", 100.0 / 3) && value_is(&ss, "idle_pct", 100.0 / 3), "user and idle");
	CHECK(value_is(&ss, "iowait_pct", 0), "iowait measured as a real zero");
	CHECK(value_is(&ss, "sys_s", 1.5) && value_is(&ss, "wall_s", 2.0), "sys_s from rusage, wall_s");
	ss_free(&ss);

	drop("/proc/stat");
	coll_cpu.start(&c);
	coll_cpu.stop(&c);
	CHECK(unavailable_with(&ss, "sys_pct", "/proc/stat") && unavailable_with(&ss, "iowait_pct", "/proc/stat"),
	      "no /proc/stat: the percentages are unavailable, with the reason");
	CHECK(get(&ss, "sys_s") && !get(&ss, "sys_s")->unavailable, "rusage figures still recorded");
	ss_free(&ss);
}

static void test_vmstat(void)
{
	struct sample_set ss = { 0 };
	struct coll_ctx c = { .out = &ss };
	const char *a = "pgfault 10\npgmajfault 1\npgscan_kswapd 5\npgscan_direct 5\npgsteal_kswapd 2\n"
			"pgsteal_direct 2\npswpin 0\npswpout 3\npgactivate 1\npgdeactivate 1\npgrefill 0\n";
	const char *b = "pgfault 110\npgmajfault 1\npgscan_kswapd 25\npgscan_direct 15\npgsteal_kswapd 2\n"
			"pgsteal_direct 12\npswpin 4\npswpout 3\npgactivate 1\npgdeactivate 1\npgrefill 0\n";
	put("/proc/vmstat", a);
	coll_vmstat.start(&c);
	put("/proc/vmstat", b);
	coll_vmstat.stop(&c);
	CHECK(value_is(&ss, "vm_pgfault", 100), "pgfault delta");
	CHECK(value_is(&ss, "vm_pgscan", 30), "pgscan sums kswapd and direct");
	CHECK(value_is(&ss, "vm_pgsteal", 10) && value_is(&ss, "vm_pswpin", 4), "pgsteal and pswpin");
	CHECK(unavailable_with(&ss, "vm_oom_kill", "has no oom_kill"), "a key this kernel lacks: unavailable, named");
	ss_free(&ss);
	drop("/proc/vmstat");
	coll_vmstat.start(&c);
	coll_vmstat.stop(&c);
	CHECK(unavailable_with(&ss, "vm_pgfault", "not readable"), "no /proc/vmstat at all");
	ss_free(&ss);
}

/* klog: the records written between start and stop, the kernel's
 * alone, as reports and signatures (/dev/kmsg faked as a file: a read
 * past the end returns what was appended) */
static void test_klog(void)
{
	struct sample_set ss = { 0 };
	struct coll_ctx c = { .out = &ss };
	put("/dev/kmsg", "4,100,1000,-;WARNING: CPU: 0 PID: 1 at mm/old.c:1 before_start+0x1/0x2\n");
	coll_klog.start(&c);
	char path[512];
	snprintf(path, sizeof(path), "%s/dev/kmsg", root);
	FILE *f = fopen(path, "a");
	fputs("4,101,2000,-;------------[ cut here ]------------\n"
	      "4,102,2001,-;WARNING: CPU: 1 PID: 234 at mm/rmap.c:273 anon_vma_clone+0x1d2/0x2f0\n"
	      " SUBSYSTEM=cpu\n"
	      "4,103,2002,-;RIP: 0010:anon_vma_clone+0x1d2/0x2f0\n"
	      "4,104,2003,-;---[ end trace 0000000000000000 ]---\n"
	      "12,105,2004,-;BUG: kernel NULL pointer dereference, a fake from userspace\n",
	      f);
	fclose(f);
	coll_klog.stop(&c);
	const struct attr *a = ss_attr_find(&ss, "kernel_error_1");
	const struct attr *u = ss_attr_find(&ss, "kernel_log_userspace_records");
	CHECK(value_is(&ss, "kernel_error_reports", 1) && a && !strcmp(a->value, "1 WARNING in anon_vma_clone"),
	      "one WARNING since start, its signature an attribute (%s)", a ? a->value : "none");
	CHECK(u && !strcmp(u->value, "1") && !ss_attr_find(&ss, "kernel_error_2"),
	      "userspace's fake report counted, not taken for the kernel's");
	ss_free(&ss);
	drop("/dev/kmsg");
	coll_klog.start(&c);
	coll_klog.stop(&c);
	CHECK(unavailable_with(&ss, "kernel_error_reports", "/dev/kmsg: No such file"), "no /dev/kmsg: unavailable");
	ss_free(&ss);
}

static void test_lock_unavailable(void)
{
	struct sample_set ss = { 0 };
	struct coll_ctx c = { .out = &ss };
	setenv("RMAPBENCH_TRACEFS", "/nonexistent-tracefs", 1);
	put("/proc/lock_stat",
	    "lock_stat version 0.4\n"
	    "---------------------------------------------------------------------------------------------------\n"
	    "                              class name    con-bounces    contentions   waittime-min   waittime-max "
	    "waittime-total   waittime-avg    acq-bounces   acquisitions   holdtime-min   holdtime-max holdtime-total "
	    "  holdtime-avg\n"
	    "---------------------------------------------------------------------------------------------------\n"
	    "\n"
	    "                      &anon_vma->rwsem-W:            10             12           0.10          20.00"
	    "          30.50           2.54            100            400           0.05          10.00         "
	    "50.00           0.12\n"
	    "                      &anon_vma->rwsem-R:             3              4           0.10           5.00"
	    "           9.50           2.37             20            600           0.05           1.00         "
	    "10.00           0.01\n"
	    "                      ----------------\n"
	    "                      &anon_vma->rwsem             7          [<ffffffff81234567>] anon_vma_fork+0x1/0x2\n"
	    "\n"
	    "                         &mm->mmap_lock:             1              2           1.00           2.00"
	    "           3.00           1.50             10             20           0.10           0.20           "
	    "1.00           0.05\n");
	coll_lock.start(&c);
	coll_lock.stop(&c);
	CHECK(unavailable_with(&ss, "lock_contentions", "tracepoints") &&
		      unavailable_with(&ss, "lock_wait_ns", "tracepoints"),
	      "no lock tracepoints: contentions and wait unavailable, with the reason");
	CHECK(value_is(&ss, "lockstat_anon_vma_contentions", 16), "lock_stat: -W and -R of anon_vma folded (12 + 4)");
	CHECK(value_is(&ss, "lockstat_anon_vma_wait_ns", 40000), "lock_stat wait time in ns (30.50 + 9.50 us)");
	CHECK(value_is(&ss, "lockstat_contentions", 18), "lock_stat total over classes");
	ss_free(&ss);
	drop("/proc/lock_stat");
	coll_lock.start(&c);
	coll_lock.stop(&c);
	CHECK(unavailable_with(&ss, "lockstat_anon_vma_contentions", "CONFIG_LOCK_STAT"), "no lock_stat: unavailable");
	ss_free(&ss);
	unsetenv("RMAPBENCH_TRACEFS");

	struct lockstat_class v[4];
	CHECK(lockstat_parse("not lock stat\n", v, 4) < 0, "lockstat_parse refuses other text");
}

static void test_rmap(void)
{
	struct sample_set ss = { 0 };
	struct coll_ctx c = { .out = &ss };
	coll_rmap.start(&c);
	coll_rmap.stop(&c);
	CHECK(unavailable_with(&ss, "rmap_walks", "no kprobe PMU") &&
		      unavailable_with(&ss, "rmap_vmas_per_walk", "no kprobe PMU"),
	      "no kprobe PMU: the walk counts are unavailable, with the reason");
	ss_free(&ss);
	put("/sys/bus/event_source/devices/kprobe/type", "987654\n");
	coll_rmap.start(&c);
	coll_rmap.stop(&c);
	CHECK(unavailable_with(&ss, "rmap_walks", "kprobe on rmap_walk_anon refused"),
	      "a kprobe PMU that refuses: unavailable with the errno");
	ss_free(&ss);
}

/* Real kernel, no sysroot: the tracepoints open and count, or say why not. */
static void test_lock_real(void)
{
	struct sample_set ss = { 0 };
	struct coll_ctx c = { .out = &ss };
	coll_lock.start(&c);
	for (int i = 0; i < 50; i++) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		waitpid(p, NULL, 0);
	}
	coll_lock.stop(&c);
	const struct sample *x = get(&ss, "lock_contentions");
	CHECK(x && (x->unavailable ? x->reason[0] != 0 : x->value >= 0),
	      "real kernel: lock_contentions %s", x ? (x->unavailable ? x->reason : "measured") : "missing");
	if (x && !x->unavailable) {
		const struct sample *w = get(&ss, "lock_wait_ns");
		const struct sample *r = get(&ss, "lock_contentions_rwsem");
		CHECK(w && (w->unavailable || (r && !r->unavailable)), "wait time and the per-class split recorded");
	}
	ss_free(&ss);
}

static void test_pfm(void)
{
	struct sample_set ss = { 0 };
	static const char events[3][48] = { "PAGE-FAULTS", "NO-SUCH-EVENT-XYZ", "CYCLES" };
	int gate[2];
	if (pipe(gate) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		char go;
		close(gate[1]);
		if (read(gate[0], &go, 1) != 1)
			_exit(1);
		execl("/bin/sh", "sh", "-c", "true", (char *)NULL);
		_exit(127);
	}
	close(gate[0]);
	struct coll_ctx c = { .out = &ss, .pid = pid, .pfm_events = events, .n_pfm_events = 3 };
	coll_pfm.start(&c);
	if (write(gate[1], "g", 1) != 1)
		return;
	waitpid(pid, NULL, 0);
	coll_pfm.stop(&c);
	const struct sample *pf = get(&ss, "pfm_page_faults");
	CHECK(pf && !pf->unavailable && pf->value > 0, "PAGE-FAULTS counted across exec: %g",
	      pf && !pf->unavailable ? pf->value : -1);
	CHECK(unavailable_with(&ss, "pfm_no_such_event_xyz", "cannot encode"), "an unknown event name: unavailable");
	const struct sample *cy = get(&ss, "pfm_cycles");
	CHECK(cy && (cy->unavailable ? cy->reason[0] != 0 : cy->value > 0), "CYCLES: %s",
	      cy ? (cy->unavailable ? cy->reason : "counted") : "missing");
	ss_free(&ss);
}

static void test_protocol(void)
{
	struct sample_set ss = { 0 };
	CHECK(ss_parse_line(&ss, "metric jobs_per_min 1.5e3 jobs/min", "") == 0 && value_is(&ss, "jobs_per_min", 1500),
	      "protocol: metric line");
	CHECK(ss_parse_line(&ss, "unavailable jti_pct one user: no spread", "") == 0 &&
		      unavailable_with(&ss, "jti_pct", "one user: no spread"),
	      "protocol: unavailable line keeps the whole reason");
	CHECK(ss_parse_line(&ss, "info kernel 6.1", "") == 0 && ss.nattrs == 1, "protocol: info line");
	CHECK(ss_parse_line(&ss, "garbage", "") == 1, "protocol: other lines are reported as not understood");
	ss_free(&ss);
}

int main(void)
{
	test_protocol();
	test_lock_real();
	test_pfm();
	if (!mkdtemp(root))
		return 1;
	setenv("RMAPBENCH_SYSROOT", root, 1);
	test_cpu();
	test_vmstat();
	test_lock_unavailable();
	test_rmap();
	test_klog();
	unsetenv("RMAPBENCH_SYSROOT");
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
