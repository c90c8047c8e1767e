#include "tracer.h"

#include "mmstate.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a seccomp stop asks for: its filter's SECCOMP_RET_DATA. A
 * mapping call is followed to its exit (the mappings it made); one that
 * changes a range (args 0 and 1) first has that range's pages read, so
 * that what it unmaps, moves, zaps or makes read-only was written in
 * the trace before it. */
enum { STOP_FORK = 1, STOP_MM_AFTER = 2, STOP_MM_RANGE = 3 };

struct proc {
	struct mmstate mm;
	int ntasks;
	int aliases;             /* vfork children on this mm: it outlives its exit for them */
	bool started;            /* proc 1 starts at CMD's exec */
	bool gone;               /* exited: its number is free, nothing is synced */
	uint64_t sampled;        /* the last sample that synced it */
};

struct task {
	pid_t tid;
	struct proc *p;
	bool vfork_child;        /* shares p (its parent's mm) until exec */
	bool known;              /* its parent's fork event has come */
	bool stopped_early;      /* its first stop came before that event */
	bool await_sigstop;      /* the event came first: its SIGSTOP is ours */
	long sys_nr;             /* the mm call it is in, until its exit stop */
	unsigned long args[6];
	unsigned long clone_flags;
	uint64_t ran_ns;         /* its run time at the last sample that read it */
};

struct tracer {
	struct task **tasks;     /* by tid */
	size_t ntasks_cap;
	unsigned long *free_nums;
	size_t nfree, free_cap;
	unsigned long next_num, live;
	struct sync_env env;
	struct record_stats *st;
	uint64_t samples;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int install_filter(void)
{
#define TRACE(nr, what) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | (what))
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		TRACE(SYS_clone, STOP_FORK),
		/* clone3's flags are in memory that another thread may change
		 * between our look and the kernel's: refused as a kernel without
		 * it refuses it, and glibc falls back to clone, whose flags are
		 * in a register */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		TRACE(SYS_fork, STOP_FORK),
		TRACE(SYS_vfork, STOP_FORK),
		TRACE(SYS_mprotect, STOP_MM_RANGE),
		TRACE(SYS_munmap, STOP_MM_RANGE),
		TRACE(SYS_mremap, STOP_MM_RANGE),
		TRACE(SYS_brk, STOP_MM_AFTER),
		TRACE(SYS_madvise, STOP_MM_RANGE),
		/* mmap: only an anonymous one (a library's file mappings, most
		 * of a program's start, run untraced; one mapped over anonymous
		 * memory is seen as its munmap at the next sync) */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[3])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_ANONYMOUS, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | STOP_MM_AFTER),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
#undef TRACE
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static struct task *task_get(struct tracer *t, pid_t tid, bool create)
{
	if ((size_t)tid >= t->ntasks_cap) {
		if (!create)
			return NULL;
		size_t cap = t->ntasks_cap ? t->ntasks_cap : 32768;
		while (cap <= (size_t)tid)
			cap *= 2;
		struct task **n = realloc(t->tasks, cap * sizeof(*n));
		if (!n)
			abort();
		memset(n + t->ntasks_cap, 0, (cap - t->ntasks_cap) * sizeof(*n));
		t->tasks = n;
		t->ntasks_cap = cap;
	}
	if (!t->tasks[tid] && create) {
		t->tasks[tid] = calloc(1, sizeof(struct task));
		if (!t->tasks[tid])
			abort();
		t->tasks[tid]->tid = tid;
	}
	return t->tasks[tid];
}

static void task_drop(struct tracer *t, pid_t tid)
{
	if ((size_t)tid < t->ntasks_cap) {
		free(t->tasks[tid]);
		t->tasks[tid] = NULL;
	}
}

/* A process number: one freed by an exit, else the next. */
static unsigned long num_get(struct tracer *t)
{
	t->live++;
	if (t->live > t->st->live_max)
		t->st->live_max = t->live;
	return t->nfree ? t->free_nums[--t->nfree] : t->next_num++;
}

static void num_put(struct tracer *t, unsigned long num)
{
	t->live--;
	if (t->nfree == t->free_cap) {
		t->free_cap = t->free_cap ? t->free_cap * 2 : 256;
		t->free_nums = realloc(t->free_nums, t->free_cap * sizeof(*t->free_nums));
		if (!t->free_nums)
			abort();
	}
	t->free_nums[t->nfree++] = num;
}

static struct proc *proc_new(void)
{
	struct proc *p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	return p;
}

/* A process the trace follows now: started, not exited. */
static bool live(const struct proc *p)
{
	return p && p->started && !p->gone;
}

static void sync_task(struct tracer *t, struct task *k)
{
	if (live(k->p))
		mm_sync(&t->env, &k->p->mm, k->tid, true);
}

/* The last task of a process has gone (or is going): its exit. Its
 * vfork children (CLONE_VM without CLONE_THREAD) may still be on it. */
static void proc_exit(struct tracer *t, struct proc *p)
{
	if (p->started) {
		emit_line(t->env.out, "exit %lu", p->mm.num);
		num_put(t, p->mm.num);
	}
	p->gone = true;
	mm_clear(&p->mm);
	if (!p->aliases)
		free(p);
}

/* A vfork child leaves its parent's mm: at its exec or exit. */
static void proc_unalias(struct proc *p)
{
	if (--p->aliases == 0 && p->gone)
		free(p);
}

/* A task leaves its process: at exit, or a vfork child at exec. */
static void task_leave(struct tracer *t, struct task *k, bool sync)
{
	struct proc *p = k->p;
	k->p = NULL;
	if (!p)
		return;
	if (k->vfork_child) { /* never counted in its parent's tasks */
		proc_unalias(p);
		return;
	}
	if (--p->ntasks > 0)
		return;
	if (sync)
		mm_sync(&t->env, &p->mm, k->tid, true);
	proc_exit(t, p);
}

static void on_seccomp(struct tracer *t, struct task *k, unsigned long what)
{
	struct user_regs_struct r;
	if (ptrace(PTRACE_GETREGS, k->tid, 0, &r) < 0)
		return;
	long nr = (long)r.orig_rax;
	unsigned long args[6] = { r.rdi, r.rsi, r.rdx, r.r10, r.r8, r.r9 };
	if (what == STOP_FORK) {
		k->clone_flags = nr == SYS_vfork ? CLONE_VM | CLONE_VFORK : nr == SYS_fork ? 0 : args[0];
		if (nr == SYS_clone && (args[0] & CLONE_UNTRACED)) {
			/* a child we would not follow, running on after record:
			 * traced like any other, or the caller does not go on */
			r.rdi &= ~(unsigned long)CLONE_UNTRACED;
			k->clone_flags &= ~(unsigned long)CLONE_UNTRACED;
			if (ptrace(PTRACE_SETREGS, k->tid, 0, &r) < 0)
				kill(k->tid, SIGKILL);
			t->st->untraced_cleared++;
		}
		/* the parent's writes so far come before the child's copy */
		if (!(k->clone_flags & CLONE_VM))
			sync_task(t, k);
		return;
	}
	if (what == STOP_MM_RANGE && live(k->p) && !(nr == SYS_mprotect && (args[2] & PROT_WRITE))) {
		unsigned shift = t->env.page_shift;
		unsigned long lo = args[0] >> shift, len = (args[1] + (1UL << shift) - 1) >> shift;
		mm_sync_range(&t->env, &k->p->mm, k->tid, lo, lo + len < lo ? ~0UL : lo + len);
	}
	k->sys_nr = nr;
	memcpy(k->args, args, sizeof(args));
}

static void on_syscall_exit(struct tracer *t, struct task *k)
{
	struct user_regs_struct r;
	long nr = k->sys_nr;
	k->sys_nr = 0;
	if (!live(k->p) || ptrace(PTRACE_GETREGS, k->tid, 0, &r) < 0)
		return;
	long ret = (long)r.rax;
	unsigned shift = t->env.page_shift;
	if (nr == SYS_mremap && ret > 0 && (unsigned long)ret != k->args[0]) {
		/* moved: the trace moves its pages, as the kernel moved the ptes */
		unsigned long old = k->args[0] >> shift, n = (k->args[1] < k->args[2] ? k->args[1] : k->args[2]) >> shift;
		unsigned long new_start = (unsigned long)ret >> shift;
		bool anon = false;
		for (size_t i = 0; i < k->p->mm.maps.n; i++)
			anon |= k->p->mm.maps.v[i].start <= old && old + n <= k->p->mm.maps.v[i].end;
		if (anon && n) {
			emit_line(t->env.out, "mremap %lu %lu %lu %lu", k->p->mm.num, old, n, new_start);
			mm_move(&k->p->mm, old, n, new_start);
		}
	}
	/* madvise may have zapped pages: those are seen by their frames; the
	 * other calls' exit reads the mappings alone */
	if (nr == SYS_madvise) {
		unsigned shift = t->env.page_shift;
		unsigned long lo = k->args[0] >> shift, len = (k->args[1] + (1UL << shift) - 1) >> shift;
		mm_sync_range(&t->env, &k->p->mm, k->tid, lo, lo + len < lo ? ~0UL : lo + len);
	}
	mm_sync(&t->env, &k->p->mm, k->tid, false);
}

static void on_fork_event(struct tracer *t, struct task *k, int event)
{
	unsigned long msg = 0;
	ptrace(PTRACE_GETEVENTMSG, k->tid, 0, &msg);
	struct task *c = task_get(t, (pid_t)msg, true);
	unsigned long flags = k->clone_flags;
	if (event == PTRACE_EVENT_VFORK)
		flags |= CLONE_VM | CLONE_VFORK;
	if (flags & CLONE_VM) {
		/* a thread, or a vfork child on its parent's mm until exec */
		c->p = k->p;
		c->vfork_child = !(flags & CLONE_THREAD); /* a process of its own from its exec */
		if (c->p && c->vfork_child)
			c->p->aliases++;
		else if (c->p)
			c->p->ntasks++;
		t->st->threads += !c->vfork_child;
	} else if (k->p && !k->p->gone) {
		struct proc *p = proc_new();
		p->ntasks = 1;
		p->started = k->p->started;
		if (p->started) {
			unsigned long num = num_get(t);
			if (mm_copy(&p->mm, &k->p->mm, num) < 0)
				abort();
			emit_line(t->env.out, "fork %lu %lu", k->p->mm.num, num);
			t->st->forks++;
			t->st->processes++;
		}
		c->p = p;
	}
	c->known = true;
	if (c->stopped_early) { /* its first stop is waiting for this */
		c->stopped_early = false;
		ptrace(PTRACE_CONT, c->tid, 0, 0);
	} else {
		c->await_sigstop = true;
	}
}

static void on_exec_event(struct tracer *t, struct task *k)
{
	unsigned long former = 0;
	ptrace(PTRACE_GETEVENTMSG, k->tid, 0, &former);
	if ((pid_t)former != k->tid) { /* a thread exec'ed: it takes the leader's tid */
		struct task *old = task_get(t, (pid_t)former, false);
		if (old) {
			struct task *leader = k;
			leader->p = old->p;
			leader->vfork_child = old->vfork_child;
			task_drop(t, (pid_t)former);
		}
	}
	struct proc *p = k->p;
	if (k->vfork_child || !p) { /* a new mm for a process of its own */
		struct proc *np = proc_new();
		np->ntasks = 1;
		np->started = true;
		np->mm.num = num_get(t);
		/* spawn names the parent for the reader; its mm is not used, so
		 * a parent that has exited meanwhile does no harm */
		if (!p || p->started) /* not CMD's own first exec */
			emit_line(t->env.out, "spawn %lu %lu", p ? p->mm.num : np->mm.num, np->mm.num);
		if (p && k->vfork_child)
			proc_unalias(p);
		k->p = np;
		k->vfork_child = false;
		t->st->spawns++;
		t->st->processes++;
		p = np;
	} else if (!p->started) { /* CMD itself: process 1 */
		p->started = true;
		p->mm.num = num_get(t);
		t->st->processes++;
	} else {
		emit_line(t->env.out, "exec %lu", p->mm.num);
		unsigned long num = p->mm.num;
		mm_clear(&p->mm);
		p->mm.num = num;
		/* the other threads are gone with the old program: their exits,
		 * still to come, must not end the process */
		for (size_t i = 0; i < t->ntasks_cap; i++)
			if (t->tasks[i] && t->tasks[i] != k && t->tasks[i]->p == p && !t->tasks[i]->vfork_child)
				t->tasks[i]->p = NULL;
		p->ntasks = 1;
		t->st->execs++;
	}
	mm_sync(&t->env, &p->mm, k->tid, true);
}

/* The time task tid has run, in ns (/proc/TID/schedstat's first field),
 * or 0 when it cannot be read. */
static uint64_t task_ran_ns(pid_t tid)
{
	char path[64], buf[96];
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return strtoull(buf, NULL, 10);
}

/* Every running process synced without stopping it: a process that
 * writes its memory and makes no system call (a COW storm between a fork
 * and an exit) is seen while it runs, not only at its exit. Root reads a
 * running task's maps and pagemap; a task gone meanwhile is skipped. */
static void sample_all(struct tracer *t)
{
	t->samples++;
	for (size_t i = 0; i < t->ntasks_cap; i++) {
		struct task *k = t->tasks[i];
		if (!k || !k->known || !live(k->p) || k->p->sampled == t->samples)
			continue;
		/* a task that has not run since the last sample wrote nothing:
		 * a sleeping server's workers cost a read of schedstat, not of
		 * their page tables */
		uint64_t ran = task_ran_ns(k->tid);
		if (ran && ran == k->ran_ns)
			continue;
		k->ran_ns = ran;
		k->p->sampled = t->samples;
		mm_sync(&t->env, &k->p->mm, k->tid, true);
	}
}

/* CMD's process, stopped by its own SIGSTOP before the filter and exec. */
static pid_t start_child(char *const argv[], char *err, size_t errlen)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(pfd[0]);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL); /* the tracer's SIGCHLD block is not CMD's */
		int e = 0;
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0 || raise(SIGSTOP) < 0 || install_filter() < 0)
			e = errno;
		if (!e) {
			execvp(argv[0], argv);
			e = errno;
		}
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	int status;
	if (waitpid(pid, &status, __WALL) != pid || !WIFSTOPPED(status)) {
		snprintf(err, errlen, "%s: did not stop for the tracer", argv[0]);
		close(pfd[0]);
		return -1;
	}
	long opts = PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
		    PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT | PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, opts) < 0) {
		snprintf(err, errlen, "ptrace(PTRACE_SETOPTIONS): %s", strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, &status, __WALL);
		close(pfd[0]);
		return -1;
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	/* the exec's error, if it failed, comes down the pipe (closed on exec) */
	int e = 0;
	ssize_t r;
	do
		r = read(pfd[0], &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(pfd[0]);
	if (r == (ssize_t)sizeof(e) && e) {
		snprintf(err, errlen, "%s: %s", argv[0], strerror(e));
		while (waitpid(pid, &status, __WALL) > 0 && !WIFEXITED(status) && !WIFSIGNALED(status))
			ptrace(PTRACE_CONT, pid, 0, 0);
		return -1;
	}
	return pid;
}

int record_run(char *const argv[], struct emit *out, long sample_ms, struct record_stats *st, char *err,
	       size_t errlen)
{
	struct tracer t = { .st = st, .next_num = 1 };
	memset(st, 0, sizeof(*st));
	t.env.out = out;
	t.env.page_shift = (unsigned)__builtin_ctzl((unsigned long)sysconf(_SC_PAGESIZE));
	t.env.max_pages = 1UL << 26;
	/* the shared zero page's frame: what a read of untouched memory maps */
	volatile char *z = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t ent = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (z == MAP_FAILED || fd < 0) {
		snprintf(err, errlen, "/proc/self/pagemap: %s", strerror(errno));
		return -1;
	}
	(void)z[0];
	ssize_t r = pread(fd, &ent, 8, (off_t)(((uintptr_t)z >> t.env.page_shift) * 8));
	close(fd);
	munmap((void *)z, 4096);
	if (r != 8 || !(ent & (1ull << 63)) || !(ent & ((1ull << 55) - 1))) {
		snprintf(err, errlen, "/proc/PID/pagemap gives no frame numbers here (they need CAP_SYS_ADMIN: run as "
			 "root): without them a COW copy cannot be told from a shared page");
		return -1;
	}
	t.env.zero_pfn = ent & ((1ull << 55) - 1);
	double t0 = now();
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL); /* waited for with a deadline: the next sample */
	pid_t root = start_child(argv, err, errlen);
	if (root < 0)
		return -1;
	double next_sample = now() + (double)sample_ms / 1e3;
	struct task *k0 = task_get(&t, root, true);
	k0->known = true;
	k0->p = proc_new();
	k0->p->ntasks = 1;
	st->status = -1;
	for (;;) {
		int status;
		pid_t tid = waitpid(-1, &status, __WALL | WNOHANG);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: every task has gone */
		}
		if (tid == 0) { /* nothing stopped: sample, or wait for a stop until the next sample */
			double due = next_sample - now();
			if (sample_ms > 0 && due <= 0) {
				sample_all(&t);
				next_sample = now() + (double)sample_ms / 1e3;
				continue;
			}
			if (sample_ms <= 0)
				due = 1;
			struct timespec ts = { (time_t)due, (long)((due - (double)(time_t)due) * 1e9) };
			sigtimedwait(&chld, NULL, &ts);
			continue;
		}
		st->stops++;
		struct task *k = task_get(&t, tid, true);
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (k->p)
				task_leave(&t, k, false); /* no exit stop came (SIGKILL) */
			if (tid == root)
				st->status = status;
			task_drop(&t, tid);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		int sig = WSTOPSIG(status), event = status >> 16;
		int deliver = 0;
		if (!k->known) { /* a new task stopped before its parent's event */
			k->stopped_early = true;
			continue;
		}
		if (event == PTRACE_EVENT_SECCOMP) {
			unsigned long what = 0;
			ptrace(PTRACE_GETEVENTMSG, tid, 0, &what);
			on_seccomp(&t, k, what);
			if (k->sys_nr) { /* its exit stop: after the call */
				ptrace(PTRACE_SYSCALL, tid, 0, 0);
				continue;
			}
		} else if (sig == (SIGTRAP | 0x80)) {
			if (k->sys_nr)
				on_syscall_exit(&t, k);
		} else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK || event == PTRACE_EVENT_CLONE) {
			on_fork_event(&t, k, event);
		} else if (event == PTRACE_EVENT_EXEC) {
			on_exec_event(&t, k);
		} else if (event == PTRACE_EVENT_EXIT) {
			task_leave(&t, k, true);
		} else if (event == PTRACE_EVENT_VFORK_DONE || event == PTRACE_EVENT_STOP) {
			;
		} else if (sig == SIGSTOP && k->await_sigstop && !event) {
			k->await_sigstop = false; /* a new task's first stop */
		} else if (!event) {
			deliver = sig == SIGTRAP ? 0 : sig; /* the task's own signal goes on to it */
		}
		ptrace(PTRACE_CONT, tid, 0, deliver);
	}
	st->wall_s = now() - t0;
	st->syncs = t.env.syncs;
	st->pages_read = t.env.pages_read;
	st->skipped_huge = t.env.skipped_huge;
	st->scans = t.env.scans;
	st->samples = t.samples;
	for (size_t i = 0; i < t.ntasks_cap; i++)
		free(t.tasks[i]);
	free(t.tasks);
	free(t.free_nums);
	return 0;
}
