#include "qemu.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The child's side of the probe: a guest whose one instruction is hlt.
 * Exit 0 when KVM_RUN comes back with KVM_EXIT_HLT. */
static int kvm_hlt_guest(void)
{
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return 10;
	if (ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION)
		return 11;
	int vm = ioctl(kvm, KVM_CREATE_VM, 0);
	uint8_t *mem = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (vm < 0 || mem == MAP_FAILED)
		return 12;
	mem[0] = 0xf4;
	struct kvm_userspace_memory_region region = {
		.slot = 0, .guest_phys_addr = 0x1000, .memory_size = 0x1000, .userspace_addr = (uintptr_t)mem
	};
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) < 0)
		return 13;
	int vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	int size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (vcpu < 0 || size <= 0)
		return 14;
	struct kvm_run *run = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	struct kvm_sregs sregs;
	if (run == MAP_FAILED || ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0)
		return 15;
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	struct kvm_regs regs;
	memset(&regs, 0, sizeof(regs));
	regs.rip = 0x1000;
	regs.rflags = 2;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs) < 0 || ioctl(vcpu, KVM_SET_REGS, &regs) < 0)
		return 16;
	if (ioctl(vcpu, KVM_RUN, 0) < 0)
		return 17;
	return run->exit_reason == KVM_EXIT_HLT ? 0 : 18;
}

/* A console read a piece at a time is searched with the last few bytes
 * of the piece before carried over, so that a mark split between two
 * reads is seen: the last keep of src's have bytes into dst. */
static size_t keep_tail(char *dst, const char *src, size_t have, size_t keep)
{
	size_t k = have < keep ? have : keep;
	memmove(dst, src + have - k, k);
	return k;
}

/* A real kernel under KVM, with no root to mount: it panics within a few
 * seconds where KVM works. A nested KVM that halts a one-instruction guest
 * can still hang a real one at its first 64-bit instruction (a PVM host
 * does, silently, before the console's first line): only this tells them
 * apart. 1 it printed its panic, 0 it did not by the deadline, -1 an error
 * (said in why). The console comes back on a pipe: no file is made. */
static int kvm_boots(const char *image, double deadline_s, char *why, size_t len)
{
	static const char mark[] = "Kernel panic - ";
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(why, len, "pipe for the KVM boot probe: %s", strerror(errno));
		return -1;
	}
	const char *argv[] = { "qemu-system-x86_64", "-machine", "q35", "-accel", "kvm", "-cpu", "host", "-m", "256M",
			       "-nodefaults", "-display", "none", "-no-reboot", "-kernel", image, "-append",
			       "console=ttyS0 panic=-1 loglevel=4", "-serial", "stdio", NULL };
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpgid(0, 0);
		int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (nul < 0 || dup2(nul, 0) < 0 || dup2(fds[1], 1) < 0 || dup2(nul, 2) < 0)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		snprintf(why, len, "fork for the KVM boot probe: %s", strerror(errno));
		return -1;
	}
	char buf[4096 + sizeof(mark)];
	size_t carry = 0, total = 0;
	int seen = 0;
	double t0 = rb_now();
	while (!seen && total < (1 << 20)) {
		double left = deadline_s - (rb_now() - t0);
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		if (left <= 0 || poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			break;
		ssize_t n = read(fds[0], buf + carry, sizeof(buf) - carry);
		if (n <= 0)
			break; /* QEMU ended: a panic with -no-reboot, or it failed */
		total += (size_t)n;
		size_t have = carry + (size_t)n;
		seen = memmem(buf, have, mark, sizeof(mark) - 1) != NULL;
		carry = keep_tail(buf, buf, have, sizeof(mark));
	}
	double took = rb_now() - t0;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fds[0]);
	if (seen)
		snprintf(why, len, "KVM booted %s to its panic without a root in %.1f s", image, took);
	else
		snprintf(why, len, "a KVM guest of %s printed no panic within %.0f s (%zu console bytes)", image,
			 deadline_s, total);
	return seen;
}

static int probed;
static char reason[300];
static const char *accel = "tcg";

void qemu_disable_kvm(const char *why)
{
	probed = 1;
	accel = "tcg";
	snprintf(reason, sizeof(reason), "%s", why);
}

/* The deadline of the boot probe: a working KVM panics in 1 to 2 s here,
 * a few more with every core busy. */
#define KVM_BOOT_DEADLINE_S 20

const char *qemu_probe_accel(const char *image, char *why, size_t len)
{
	if (probed) {
		snprintf(why, len, "%s", reason);
		return accel;
	}
	probed = 1;
	if (access("/dev/kvm", R_OK | W_OK) < 0) {
		snprintf(reason, sizeof(reason), "no usable /dev/kvm: %s", strerror(errno));
	} else {
		pid_t pid = fork();
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			_exit(kvm_hlt_guest());
		}
		int st = 0, done = 0;
		const double deadline_s = 3;
		for (double t0 = rb_now(); pid > 0 && rb_now() - t0 < deadline_s;) {
			if (waitpid(pid, &st, WNOHANG) == pid) {
				done = 1;
				break;
			}
			usleep(20000);
		}
		if (pid < 0) {
			snprintf(reason, sizeof(reason), "fork for the KVM probe: %s", strerror(errno));
		} else if (!done) {
			/* Nested KVM can hang in KVM_RUN: give up on it, and
			 * do not wait for a child that may never die. */
			kill(pid, SIGKILL);
			waitpid(pid, &st, WNOHANG);
			snprintf(reason, sizeof(reason), "a one-instruction KVM guest did not halt within %.0f s",
				 deadline_s);
		} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			snprintf(reason, sizeof(reason), "the KVM probe failed at step %d",
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		} else if (!image) {
			accel = "kvm";
			snprintf(reason, sizeof(reason), "KVM ran a one-instruction guest");
		} else if (kvm_boots(image, KVM_BOOT_DEADLINE_S, reason, sizeof(reason)) == 1) {
			accel = "kvm";
		}
	}
	snprintf(why, len, "%s", reason);
	return accel;
}

/* The console as it grows: new bytes only, a bounded amount a tick. */
struct console_watch {
	int fd;
	off_t off;
	char carry[32];
	size_t ncarry;
	double panic_at; /* when the panic line was seen */
	int ended;       /* the panic's last line was seen too */
};

static void console_scan(struct console_watch *w, const char *path, struct qemu_result *r)
{
	static const char panic[] = "Kernel panic - ", end[] = "---[ end Kernel panic";
	if (w->fd < 0 && (w->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return;
	char buf[sizeof(w->carry) + 4096];
	for (int reads = 0; reads < 16; reads++) {
		memcpy(buf, w->carry, w->ncarry);
		ssize_t n = pread(w->fd, buf + w->ncarry, sizeof(buf) - w->ncarry, w->off);
		if (n <= 0)
			return;
		w->off += n;
		size_t len = w->ncarry + (size_t)n;
		if (!r->panicked && memmem(buf, len, panic, sizeof(panic) - 1)) {
			r->panicked = 1;
			w->panic_at = rb_now();
		}
		if (r->panicked && memmem(buf, len, end, sizeof(end) - 1))
			w->ended = 1;
		w->ncarry = keep_tail(w->carry, buf, len, sizeof(w->carry));
	}
}

static off_t file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? sb.st_size : 0;
}

int qemu_run(const struct qemu_spec *s, struct qemu_result *r)
{
	memset(r, 0, sizeof(*r));
	int chosen = !s->accel || !strcmp(s->accel, "auto");
	const char *accel = s->accel;
	if (chosen)
		accel = qemu_probe_accel(s->image, r->accel_why, sizeof(r->accel_why));
	else
		snprintf(r->accel_why, sizeof(r->accel_why), "vm_accel = %s", s->accel);
	snprintf(r->accel, sizeof(r->accel), "%s", accel);
	r->kvm_auto = chosen && !strcmp(accel, "kvm");
	char mem[32], cpus[16], con[1100], res[1100];
	snprintf(mem, sizeof(mem), "%ldM", s->mem_mib);
	snprintf(cpus, sizeof(cpus), "%d", s->cpus);
	snprintf(con, sizeof(con), "file:%s", s->console_log);
	snprintf(res, sizeof(res), "file:%s", s->results);
	int kvm = !strcmp(accel, "kvm");
	const char *argv[] = { "qemu-system-x86_64",
			       "-machine", "q35",
			       "-accel", kvm ? "kvm" : "tcg",
			       "-cpu", kvm ? "host" : "max",
			       "-m", mem,
			       "-smp", cpus,
			       "-nodefaults", "-display", "none", "-no-reboot",
			       "-kernel", s->image,
			       "-initrd", s->initrd,
			       "-append", s->cmdline,
			       "-serial", con,
			       "-serial", res,
			       NULL };
	char qlog[1100];
	snprintf(qlog, sizeof(qlog), "%s.qemu", s->console_log);
	/* QEMU opens the two serial files by name: nothing planted there first */
	unlink(s->console_log);
	unlink(s->results);
	double t0 = rb_now();
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpgid(0, 0); /* a terminal's Ctrl-C is the harness's to handle */
		int fd = rb_create_file(qlog, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (nul >= 0)
			dup2(nul, 0);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "exec qemu-system-x86_64: %s\n", strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		snprintf(r->error, sizeof(r->error), "fork: %s", strerror(errno));
		return -1;
	}
	int st = 0, spoke = 0, killed = 0;
	struct console_watch cw = { .fd = -1 };
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		/* A panic is the end whatever the accelerator: under TCG
		 * panic=-1 and -no-reboot end QEMU, but a KVM guest can sit
		 * in its reboot. The trace gets a moment to reach the log. */
		console_scan(&cw, s->console_log, r);
		if (!killed && r->panicked && (cw.ended || rb_now() - cw.panic_at > 2)) {
			killed = 1;
			kill(pid, SIGKILL);
		}
		off_t results = file_size(s->results);
		if (!killed && (results > QEMU_SERIAL_CAP || file_size(s->console_log) > QEMU_SERIAL_CAP)) {
			killed = r->overflowed = 1;
			kill(pid, SIGKILL);
		}
		if (!spoke && s->boot_timeout_s > 0) {
			spoke = results > 0;
			if (!spoke && !killed && !r->panicked && rb_now() - t0 > s->boot_timeout_s) {
				killed = r->boot_stalled = 1;
				kill(pid, SIGKILL);
			}
		}
		if (!killed && ((s->stop && *s->stop) || rb_now() - t0 > s->timeout_s)) {
			killed = 1;
			r->interrupted = s->stop && *s->stop;
			r->timed_out = !r->interrupted;
			kill(pid, SIGKILL);
		}
		usleep(50000);
	}
	if (cw.fd >= 0) {
		console_scan(&cw, s->console_log, r); /* what it wrote last */
		close(cw.fd);
	}
	r->wall_s = rb_now() - t0;
	r->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		char *q = rb_read_file(qlog, NULL);
		snprintf(r->error, sizeof(r->error), "QEMU did not start: %s", q ? rb_trim(q) : "no output");
		free(q);
		return -1;
	}
	if (!killed && r->exit_status != 0) {
		char *q = rb_read_file(qlog, NULL);
		snprintf(r->error, sizeof(r->error), "QEMU exited with status %d: %.200s", r->exit_status,
			 q && *q ? rb_trim(q) : "no output");
		free(q);
	}
	return 0;
}
