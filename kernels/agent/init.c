/* rmapbench-agent: the guest's /init. Static, no shell, no busybox.
 *
 *   mount proc, sys, devtmpfs, tracefs
 *   open the results port (ttyS1: the console, ttyS0, carries the kernel's
 *     own messages, so a printk can never tear a frame)
 *   load the plan's modules, set up swap on zram, place the kprobes
 *   run the one point of the plan, measured by the harness's own collectors
 *   send every sample as a frame, then "end"; reboot (QEMU runs -no-reboot,
 *     so this ends the VM, on kernels with and without ACPI alike)
 *
 * The plan (/plan), one directive a line:
 *   module PATH          finit_module() it; dependencies come first
 *   zram_mib N           swap on /dev/zram0 of N MiB
 *   kprobe KIND FUNC     count hits of FUNC; KIND is walk or vma
 *   profile HZ           sample kernel stacks at HZ (the profile collector)
 *   run WORKLOAD K=V...  the point, given to /bin/rmapbench-load
 * Anything the guest cannot do is sent as "unavailable" with the reason,
 * and the point goes on without it. */
#include "agent.h"
#include "collector.h"
#include "frame.h"
#include "sample.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define MAX_ARGS 48

static int results_fd = -1;
static unsigned seq;

void agent_send(const char *fmt, ...)
{
	char payload[FRAME_MAX_PAYLOAD + 1], frame[FRAME_MAX_PAYLOAD + 64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(payload, sizeof(payload), fmt, ap);
	va_end(ap);
	for (char *c = payload; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	size_t n = frame_encode(frame, sizeof(frame), seq, payload);
	if (!n || results_fd < 0)
		return;
	seq++;
	for (size_t off = 0; off < n;) {
		ssize_t w = write(results_fd, frame + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

void agent_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "rmapbench-agent: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void finish(const char *status)
{
	agent_send("end %u %s", seq + 1, status);
	if (results_fd >= 0)
		tcdrain(results_fd);
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause(); /* pid 1 must not exit: that is a panic, not an end */
}

static void mount_all(void)
{
	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mkdir("/tmp", 01777);
	if (mount("proc", "/proc", "proc", 0, NULL) < 0)
		agent_log("mount /proc: %s", strerror(errno));
	if (mount("sysfs", "/sys", "sysfs", 0, NULL) < 0)
		agent_log("mount /sys: %s", strerror(errno));
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) < 0)
		agent_log("mount /dev: %s", strerror(errno));
	if (mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL) < 0)
		agent_log("mount tracefs: %s", strerror(errno));
}

static int open_results(void)
{
	int fd = open("/dev/ttyS1", O_WRONLY | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct termios t;
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		cfsetospeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

static void load_module(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		agent_send("info module_%s missing from the initramfs: %s", base, strerror(errno));
		return;
	}
	if (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST)
		agent_send("info module_%s finit_module: %s", base, strerror(errno));
	close(fd);
}

int main(void)
{
	mount_all();
	results_fd = open_results();
	if (results_fd < 0) {
		agent_log("no results port /dev/ttyS1: %s", strerror(errno));
		finish("failed: no results port");
	}
	struct utsname u;
	uname(&u);
	agent_send("begin rmapbench-agent 1 %s", u.release);
	agent_send("info guest_kernel_release %s", u.release);

	char *plan = rb_read_file("/plan", NULL);
	if (!plan)
		finish("failed: no /plan in the initramfs");
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = "/bin/rmapbench-load";
	long zram_mib = 0;
	int profile_hz = 0;
	for (char *line = strtok(plan, "\n"); line; line = strtok(NULL, "\n")) {
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = 0;
		char *arg = sp + 1;
		if (!strcmp(line, "module")) {
			load_module(arg);
		} else if (!strcmp(line, "profile")) {
			profile_hz = (int)strtol(arg, NULL, 10);
		} else if (!strcmp(line, "zram_mib")) {
			zram_mib = strtol(arg, NULL, 10);
		} else if (!strcmp(line, "kprobe")) {
			char *fn = strchr(arg, ' ');
			if (fn) {
				*fn++ = 0;
				kprobe_add(arg, fn);
			}
		} else if (!strcmp(line, "run")) {
			for (char *a = strtok(arg, " "); a && argc < MAX_ARGS; a = strtok(NULL, " "))
				argv[argc++] = a;
			break; /* strtok's state is the run line's now */
		}
	}
	argv[argc] = NULL;
	if (argc < 2)
		finish("failed: the plan has no run line");

	if (zram_mib > 0)
		swap_on_zram(zram_mib);
	else
		agent_send("info swap none (zram_mib=0)");

	struct sample_set ss = { 0 };
	/* the registry's collectors that run in a guest (rmap: kprobe.c's own) */
	const struct collector *used[16];
	struct coll_ctx cc[16];
	int nused = 0;
	for (int i = 0; collectors[i] && nused < (int)ARRAY_SIZE(used); i++)
		if (collectors[i]->guest)
			used[nused++] = collectors[i];
	int out[2];
	if (pipe2(out, O_CLOEXEC) < 0)
		finish("failed: pipe");
	pid_t pid = fork();
	if (pid < 0)
		finish("failed: fork");
	if (pid == 0) {
		dup2(out[1], 1);
		/* Held until the collectors are attached, as on the host. */
		raise(SIGSTOP);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	int st;
	waitpid(pid, &st, WUNTRACED);
	for (int i = 0; i < nused; i++) {
		cc[i] = (struct coll_ctx){ .pid = pid, .out = &ss, .profile_hz = profile_hz };
		used[i]->start(&cc[i]);
	}
	kprobe_snapshot(0);
	double t0 = rb_now();
	kill(pid, SIGCONT);

	FILE *f = fdopen(out[0], "r");
	char line[FRAME_MAX_PAYLOAD];
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0])
			agent_send("%s", line);
	}
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
		;
	double wall = rb_now() - t0;
	kprobe_snapshot(1);
	for (int i = 0; i < nused; i++) {
		cc[i].ru = ru;
		cc[i].wall_s = wall;
		used[i]->stop(&cc[i]);
	}
	kprobe_report(&ss);
	swap_report(&ss);
	for (size_t i = 0; i < ss.n; i++) {
		const struct sample *s = &ss.v[i];
		if (s->unavailable)
			agent_send("unavailable %s %s", s->metric, s->reason);
		else
			agent_send("metric %s %.9g %s", s->metric, s->value, s->unit);
	}
	for (size_t i = 0; i < ss.nattrs; i++)
		agent_send("info %s %s", ss.attrs[i].key, ss.attrs[i].value);
	char status[120];
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		snprintf(status, sizeof(status), "ok");
	else if (WIFEXITED(st))
		snprintf(status, sizeof(status), "failed: the workload exited with status %d", WEXITSTATUS(st));
	else
		snprintf(status, sizeof(status), "failed: the workload was killed by signal %d", WTERMSIG(st));
	finish(status);
}
