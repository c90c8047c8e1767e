#include "qemu.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
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

static int probed;
static char reason[200];
static const char *accel = "tcg";

void qemu_disable_kvm(const char *why)
{
	probed = 1;
	accel = "tcg";
	snprintf(reason, sizeof(reason), "%s", why);
}

const char *qemu_probe_accel(double deadline_s, char *why, size_t len)
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
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			accel = "kvm";
			snprintf(reason, sizeof(reason), "KVM ran a one-instruction guest");
		} else {
			snprintf(reason, sizeof(reason), "the KVM probe failed at step %d",
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		}
	}
	snprintf(why, len, "%s", reason);
	return accel;
}

int qemu_run(const struct qemu_spec *s, struct qemu_result *r)
{
	memset(r, 0, sizeof(*r));
	char why[200];
	int chosen = !s->accel || !strcmp(s->accel, "auto");
	const char *accel = chosen ? qemu_probe_accel(3, why, sizeof(why)) : s->accel;
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
	int st = 0, spoke = 0;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (!spoke && s->boot_timeout_s > 0) {
			struct stat sb;
			spoke = stat(s->results, &sb) == 0 && sb.st_size > 0;
			if (!spoke && !r->timed_out && rb_now() - t0 > s->boot_timeout_s) {
				r->boot_stalled = 1;
				kill(pid, SIGKILL);
			}
		}
		if (!r->timed_out && !r->interrupted && !r->boot_stalled &&
		    ((s->stop && *s->stop) || rb_now() - t0 > s->timeout_s)) {
			r->interrupted = s->stop && *s->stop;
			r->timed_out = !r->interrupted;
			kill(pid, SIGKILL);
		}
		usleep(50000);
	}
	r->wall_s = rb_now() - t0;
	r->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		char *q = rb_read_file(qlog, NULL);
		snprintf(r->error, sizeof(r->error), "QEMU did not start: %s", q ? rb_trim(q) : "no output");
		free(q);
		return -1;
	}
	if (!r->timed_out && !r->interrupted && !r->boot_stalled && r->exit_status != 0) {
		char *q = rb_read_file(qlog, NULL);
		snprintf(r->error, sizeof(r->error), "QEMU exited with status %d: %.200s", r->exit_status,
			 q && *q ? rb_trim(q) : "no output");
		free(q);
	}
	return 0;
}
