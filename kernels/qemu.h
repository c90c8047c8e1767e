/* Booting one guest under QEMU: KVM when a probe with a deadline shows it
 * works, TCG otherwise; the console on ttyS0 into a log, the results
 * channel on ttyS1 into a file; a watchdog that kills a guest which runs
 * past its time (a hang, or a panic that did not reboot). */
#ifndef RMAPBENCH_QEMU_H
#define RMAPBENCH_QEMU_H

#include <signal.h>
#include <stddef.h>

struct qemu_spec {
	const char *image, *initrd, *cmdline;
	const char *console_log, *results; /* files the two serial ports write */
	long mem_mib;
	int cpus;
	const char *accel;                 /* "auto", "kvm" or "tcg" */
	double timeout_s;
	double boot_timeout_s;             /* > 0: the results port must have
					    * spoken by then (the agent's begin) */
	volatile sig_atomic_t *stop;       /* set (by a signal handler): kill it now */
};

struct qemu_result {
	char accel[8];         /* what was used */
	char accel_why[300];   /* why: the probe's finding, or "asked for" */
	int exit_status;       /* QEMU's, when it exited */
	int timed_out;         /* the watchdog killed it */
	int interrupted;       /* the harness was told to stop */
	int boot_stalled;      /* killed: nothing on the results port in time */
	int panicked;          /* the console showed a panic: ended at once */
	int overflowed;        /* killed: a serial file passed QEMU_SERIAL_CAP */
	int kvm_auto;          /* KVM was chosen by the probe, not asked for */
	double wall_s;
	char error[300];       /* QEMU could not start, ... */
};

/* What a guest may write to either serial file before it is killed: a
 * console of a point is kilobytes, a results file a few hundred lines. */
#define QEMU_SERIAL_CAP (64L << 20)

/* "kvm" when /dev/kvm runs a one-instruction guest within a deadline and
 * (given an image) boots that kernel to its panic within another, else
 * "tcg" with the reason in why. Probed once per process. */
const char *qemu_probe_accel(const char *image, char *why, size_t len);
int qemu_run(const struct qemu_spec *s, struct qemu_result *r);
/* After a KVM guest stalled where TCG would not: TCG from now on. */
void qemu_disable_kvm(const char *why);

#endif
