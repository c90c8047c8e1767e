/* One point inside a guest: pack the agent, the workload binary, the
 * kernel's modules and the plan into an initramfs; boot it under the
 * watchdog; accept the results only as a whole, valid frame stream. A
 * guest that hangs, panics or garbles its stream fails the point with the
 * console's tail, and the run goes on to the next point. */
#include "config.h"
#include "cpio.h"
#include "frame.h"
#include "kernel.h"
#include "klog.h"
#include "point.h"
#include "progress.h"
#include "qemu.h"
#include "signals.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The rmap walk and its per-VMA callbacks, by kernel version: the
 * page_* names became folio_* in 6.0 (page_referenced_one ->
 * folio_referenced_one); try_to_unmap_one kept its name. */
static void rmap_kprobes(const char *release, char *plan, size_t len)
{
	int major = 0, minor = 0;
	sscanf(release, "%d.%d", &major, &minor);
	int folio = major >= 6;
	size_t n = strlen(plan);
	snprintf(plan + n, len - n, "kprobe walk rmap_walk_anon\nkprobe vma %s\nkprobe vma try_to_unmap_one\n",
		 folio ? "folio_referenced_one" : "page_referenced_one");
}

/* A guest's frames are outside bytes. Its facts become point attributes,
 * but never one the host owns (vm_*: the accelerator, the kernel, how
 * it ended) nor one already set; its metrics count once a point each, so
 * a guest cannot stand one measurement for fifty repetitions, nor add a
 * sample to one the host measured (vm_boot_to_end_s). */
static void on_payload(void *arg, const char *payload)
{
	struct sample_set *ss = arg;
	char key[64];
	int off = 0;
	if (!strncmp(payload, "info ", 5)) {
		if (sscanf(payload + 5, "%47s %n", key, &off) == 1 && off > 0 && strncmp(key, "vm_", 3) &&
		    !ss_attr_find(ss, key))
			ss_attr(ss, key, "%s", payload + 5 + off);
		return;
	}
	if ((sscanf(payload, "metric %63s", key) == 1 || sscanf(payload, "unavailable %63s", key) == 1) &&
	    ss_find(ss, key))
		return;
	ss_parse_line(ss, payload, "");
}

/* The console's last bytes, led by the line that says what went wrong
 * when there is one (a panic's reason comes before its stack trace). */
void console_tail_of(char *s, char *buf, size_t len)
{
	static const char *const marks[] = { "Kernel panic - ", "BUG: ", "Oops: ", "general protection fault" };
	buf[0] = 0;
	if (len < 8)
		return;
	for (char *c = s; *c; c++)
		if (*c == '\r')
			*c = ' ';
	size_t n = strlen(s), used = 0;
	const char *mark = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(marks) && !mark; i++)
		mark = strstr(s, marks[i]);
	if (mark) {
		size_t ml = strcspn(mark, "\n");
		used = (size_t)snprintf(buf, len, "%.*s | ", (int)(ml < 200 ? ml : 200), mark);
		if (used >= len)
			used = len - 1;
	}
	if (used + 4 < len) {
		size_t room = len - used - 1;
		snprintf(buf + used, len - used, "...%s", n > room - 3 ? s + n - (room - 3) : s);
	}
	rb_trim(buf);
}

static void console_tail(const char *path, char *buf, size_t len)
{
	char *s = rb_read_file(path, NULL);
	buf[0] = 0;
	if (!s)
		return;
	console_tail_of(s, buf, len);
	free(s);
}

static int build_initrd(const struct point_env *env, const struct vm_guest *g, const char *path, const char *plan, char *err, size_t errlen)
{
	struct cpio c;
	if (cpio_open(&c, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	cpio_dir(&c, "dev");
	cpio_chardev(&c, "dev/console", 5, 1);
	cpio_dir(&c, "bin");
	cpio_dir(&c, "lib");
	cpio_dir(&c, "lib/modules");
	const char *missing = NULL;
	if (cpio_file(&c, "init", 0755, g->agent_path) < 0)
		missing = g->agent_path;
	else if (cpio_file(&c, "bin/rmapbench-load", 0755, env->load_path) < 0)
		missing = env->load_path;
	for (int i = 0; !missing && i < g->kernel.nmodules; i++) {
		char name[300];
		const char *base = strrchr(g->kernel.modules[i], '/');
		snprintf(name, sizeof(name), "lib/modules/%s", base ? base + 1 : g->kernel.modules[i]);
		if (cpio_file(&c, name, 0644, g->kernel.modules[i]) < 0)
			missing = g->kernel.modules[i];
	}
	cpio_data(&c, "plan", 0644, plan, strlen(plan));
	int r = cpio_close(&c);
	if (missing) {
		snprintf(err, errlen, "%s: %s", missing, strerror(errno));
		return -1;
	}
	if (r < 0)
		snprintf(err, errlen, "writing %s failed", path);
	return r;
}

/* Plan: the agent's instructions, the modules to load, the zram size,
 * the kprobes of this release, then the workload's command line. */
static void vm_plan(const struct point_env *env, const struct vm_guest *g, char *const *argv, char *plan, size_t len)
{
	const struct kernel_info *k = &g->kernel;
	size_t n = 0;
	plan[0] = 0;
	for (int i = 0; i < k->nmodules; i++) {
		const char *base = strrchr(k->modules[i], '/');
		n += (size_t)snprintf(plan + n, len - n, "module /lib/modules/%s\n", base ? base + 1 : k->modules[i]);
	}
	n += (size_t)snprintf(plan + n, len - n, "zram_mib %ld\n", env->cfg->vm_zram_mib);
	if (env->cfg->profile && config_has_collector(env->cfg, "profile"))
		snprintf(plan + n, len - n, "profile %d\n", env->cfg->profile_hz);
	rmap_kprobes(k->release, plan, len);
	n = strlen(plan);
	n += (size_t)snprintf(plan + n, len - n, "run");
	for (int i = 1; argv[i] && n < len - 2; i++)
		n += (size_t)snprintf(plan + n, len - n, " %s", argv[i]);
	snprintf(plan + n, len - n, "\n");
}

/* Boot: the guest under its watchdog; a KVM guest that stays silent is
 * booted again under TCG. 0, or -1 with the error in out. */
static int vm_boot(const struct point_env *env, struct qemu_spec *qs, struct qemu_result *qr, struct point_out *out)
{
	progress_tick(env->pg, 0);
	int started = qemu_run(qs, qr);
	if (started == 0 && qr->boot_stalled && qr->kvm_auto) {
		/* Nested KVM can pass the probe and still hang a real guest:
		 * TCG for this point and every one after it. Only a guest
		 * that is silent and alive gets here: one that panicked or
		 * exited failed on its own, and booting it again under TCG
		 * would only fail it again, slower. */
		char why[200];
		snprintf(why, sizeof(why), "a KVM guest sent nothing within %.0f s of boot", env->cfg->vm_boot_timeout_s);
		qemu_disable_kvm(why);
		ss_attr(&out->ss, "vm_accel_fallback", "%s: rerun under TCG", why);
		started = qemu_run(qs, qr);
	}
	unlink(qs->initrd); /* megabytes a point, and rebuilt for every boot */
	if (started < 0) {
		snprintf(out->error, sizeof(out->error), "%s", qr->error);
		return -1;
	}
	return 0;
}

/* Attributes: how the guest ran and ended, for a reader (and a test) of
 * a failed point. */
static void vm_attributes(const struct kernel_info *k, const struct qemu_result *qr, struct point_out *out)
{
	ss_attr(&out->ss, "vm_accel", "%s", qr->accel);
	ss_attr(&out->ss, "vm_accel_reason", "%s", qr->accel_why);
	ss_attr(&out->ss, "vm_kernel", "%s %s", k->label, k->release);
	ss_attr(&out->ss, "vm_end", "%s",
		qr->interrupted ? "interrupted" : qr->panicked ? "panic" : qr->overflowed ? "serial cap"
		: qr->boot_stalled ? "boot deadline" : qr->timed_out ? "watchdog" : "exited");
	ss_add(&out->ss, "vm_boot_to_end_s", qr->wall_s, "s");
}

/* A guest that did not finish sent no kernel_error_reports of its own
 * (the agent's klog collector runs at the end): its console's reports
 * then, which a panic's and an oops's are (loglevel 4 keeps WARNINGs off
 * the console, but an oops ends the guest: panic=-1 oops=panic). */
static void console_errors(const char *path, struct sample_set *ss)
{
	static struct klog k;
	size_t len = 0;
	char *text = rb_read_file(path, &len);
	if (!text)
		return;
	klog_init(&k);
	klog_feed(&k, text, len);
	klog_end(&k);
	free(text);
	klog_samples(&k, ss);
	ss_attr(ss, "kernel_error_source", "the console: the guest did not finish");
}

/* Status: the agent's frames read into out, and the point done, failed
 * (with why and the console's tail) or aborted. */
static void vm_status(const struct point_env *env, const struct qemu_spec *qs, const struct qemu_result *qr,
		      struct point_out *out)
{
	size_t rlen = 0;
	char *data = rb_read_file(qs->results, &rlen);
	char status[200], why[300], tail[600];
	int valid = data ? frame_parse_stream(data, rlen, on_payload, &out->ss, status, sizeof(status), why,
					      sizeof(why))
			 : -1;
	if (!data)
		snprintf(why, sizeof(why), "no results file %s", qs->results);
	free(data);
	if (!ss_find(&out->ss, "kernel_error_reports"))
		console_errors(qs->console_log, &out->ss);
	console_tail(qs->console_log, tail, sizeof(tail));
	if (qr->interrupted) {
		snprintf(out->status, sizeof(out->status), "aborted");
		snprintf(out->error, sizeof(out->error), "stopped by a signal to the harness");
	} else if (qr->panicked) {
		snprintf(out->error, sizeof(out->error), "the guest panicked; console: %s", tail);
	} else if (qr->overflowed) {
		snprintf(out->error, sizeof(out->error),
			 "the guest wrote more than %ld MiB to a serial port and was killed; console: %s",
			 QEMU_SERIAL_CAP >> 20, tail);
	} else if (qr->boot_stalled) {
		snprintf(out->error, sizeof(out->error),
			 "the guest sent nothing on its results port within vm_boot_timeout_s=%.0f s and was killed; "
			 "console: %s",
			 env->cfg->vm_boot_timeout_s, tail);
	} else if (qr->timed_out) {
		snprintf(out->error, sizeof(out->error), "the guest ran past %.0f s and was killed; console: %s",
			 qs->timeout_s, tail);
	} else if (valid < 0) {
		snprintf(out->error, sizeof(out->error), "no valid result (%s); console: %s", why, tail);
	} else if (strcmp(status, "ok")) {
		snprintf(out->error, sizeof(out->error), "the agent reported %s; console: %s", status, tail);
	} else {
		snprintf(out->status, sizeof(out->status), "done");
	}
}

/* A point in a guest: plan, initrd, boot, attributes, status. */
int point_run_vm(const struct point_env *env, const struct vm_guest *g, const struct point_spec *ps,
		 point_plan_fn *plan_cmd, struct point_out *out)
{
	const struct config *cfg = env->cfg;
	static struct point_cmd cmd;
	static char plan[16384];
	memset(out, 0, sizeof(*out));
	snprintf(out->status, sizeof(out->status), "failed");
	rb_utc_now(out->started, sizeof(out->started));
	point_cmd_init(&cmd, out->params, sizeof(out->params));
	plan_cmd(env, ps, NULL, &cmd);
	vm_plan(env, g, cmd.argv, plan, sizeof(plan));

	char initrd[1100], conlog[1100], results[1100], cmdline[600];
	snprintf(initrd, sizeof(initrd), "%s/point-%03d-initrd.cpio", env->log_dir, ps->seq);
	snprintf(conlog, sizeof(conlog), "%s/point-%03d-console.log", env->log_dir, ps->seq);
	snprintf(results, sizeof(results), "%s/point-%03d-results.txt", env->log_dir, ps->seq);
	/* panic=-1 and oops=panic turn an oops into a reboot, which
	 * -no-reboot turns into QEMU's exit: a crashed guest ends at once. */
	snprintf(cmdline, sizeof(cmdline),
		 "console=ttyS0 rdinit=/init panic=-1 oops=panic loglevel=4 transparent_hugepage=never %s",
		 cfg->vm_cmdline);
	/* The workload's own limit, plus boot and the agent's setup. Under
	 * TCG here the agent's first frame comes 2 to 4 s after QEMU starts;
	 * a guest that has sent nothing by vm_boot_timeout_s is killed then. */
	double limit = cfg->vm_timeout_s > 0 ? cfg->vm_timeout_s : cfg->point_timeout_s + 120;
	struct qemu_spec qs = { .image = g->kernel.image, .initrd = initrd, .cmdline = cmdline, .console_log = conlog,
				.results = results, .mem_mib = cfg->vm_mem_mib, .cpus = cfg->vm_cpus,
				.accel = cfg->vm_accel, .timeout_s = limit, .boot_timeout_s = cfg->vm_boot_timeout_s,
				.stop = &rb_stop_now };
	struct qemu_result qr;
	if (build_initrd(env, g, initrd, plan, out->error, sizeof(out->error)) < 0) {
		unlink(initrd);
	} else if (vm_boot(env, &qs, &qr, out) == 0) {
		vm_attributes(&g->kernel, &qr, out);
		vm_status(env, &qs, &qr, out);
	}
	rb_utc_now(out->ended, sizeof(out->ended));
	return strcmp(out->status, "done") ? -1 : 0;
}
