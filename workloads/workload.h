/* The contract between a workload generator and the runtime that drives it.
 *
 * A workload is one file holding a `struct workload` record (stress-ng's
 * registration-record model) and a `user` body (will-it-scale's one entry
 * point). The runtime owns everything that can take a machine down: forking
 * the users, the start barrier, the death-signal chain, the watchdog and the
 * reaping. The same binary runs on the host and, statically linked, in guests.
 * A workload touches memory only through the wl_ helpers below, which go
 * to a backend: natively (runtime.c) to syscalls, loads and stores; in the
 * simulator (sim/backend.c) to the userspace rmap engine, in virtual time.
 */
#ifndef RMAPBENCH_WORKLOAD_H
#define RMAPBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct wl_params {
	long users;           /* processes forked from the parent */
	double duration_s;    /* > 0: run for this long; else jobs_per_user */
	long jobs_per_user;
	long shared_mib;      /* touched by the parent before fork: COW source */
	long shared_kib;      /* > 0: the region in KiB instead of shared_mib */
	long family_kib;      /* > 0: the region is family_kib / users instead, so
			       * the family's COW set, and the memory pressure
			       * it makes, stays the same over a users sweep */
	double cow_fraction;  /* part of the shared region users write to */
	long cow_spread;      /* reclaim: 1, that part is written a piece a job over
			       * jobs_per_user jobs rather than before the first */
	long cow_pages;       /* pages written per COW job */
	long private_mib;     /* mmap+touch+munmap per private job */
	long child_kib;       /* touched by each short-lived job child */
	long compute_iters;
	long file_mib;        /* > 0: a file set the file task reads at random */
	long file_kib;        /* read per file task (AIM7's disk tests) */
	long passes;          /* reclaim: read passes over the shared region */
	long hunt_kib;        /* oopshunt: each job's family region */
	unsigned seed;
	double max_s;         /* watchdog: hard limit on the whole point */
	char mix[128];        /* AIM7 workfile analogue: "cow:3,fork:2,..." */
};

/* One 256-byte slot per user in a shared mapping, read by the parent after
 * the users have exited: no IPC in the hot loop (will-it-scale's layout). */
struct wl_slot {
	uint64_t jobs;
	uint64_t forks;
	uint64_t cow_pages;
	uint64_t pages_read;
	/* oopshunt's checks (workloads/oopshunt.c) */
	uint64_t pages_swapped;
	uint64_t check_wrong;      /* pages whose contents changed */
	uint64_t check_first_addr; /* the first of them */
	uint64_t check_stuck;      /* pages a pageout could not take */
	uint64_t check_stuck_addr; /* the region of the first of them */
	double wall_s;
	double user_s;
	double sys_s;
	int32_t status;       /* 0 ok, else the job that failed */
	int32_t err;          /* errno of that failure */
	char pad[256 - 12 * 8 - 2 * 4];
};

struct wl_ctx;

/* Where a workload's operations go. Addresses are the backend's own: real
 * pointers natively, engine addresses (never dereferenced) in the
 * simulator. The engine has no contents, so a read returns 0 there. */
struct wl_backend {
	const char *name;
	char *(*map)(const struct wl_ctx *ctx, size_t len); /* NULL, errno set */
	void (*unmap)(const struct wl_ctx *ctx, char *addr, size_t len);
	void (*write)(const struct wl_ctx *ctx, char *addr, unsigned char v);
	unsigned char (*read)(const struct wl_ctx *ctx, const char *addr);
	/* runs fn in a child process that exits after it; waits for it */
	int (*fork_child)(const struct wl_ctx *ctx, void (*fn)(const struct wl_ctx *, unsigned), unsigned arg);
	void (*compute)(const struct wl_ctx *ctx, long iters);
	/* the file set: made once by the parent, then read through the page
	 * cache (the simulator keeps no file, only which of it is cached) */
	int (*file_create)(struct wl_ctx *ctx, size_t len);
	void (*file_read)(const struct wl_ctx *ctx, size_t off, size_t len);
	void *priv;
};
extern const struct wl_backend wl_native;

struct wl_ctx {
	struct wl_params p;
	const struct wl_backend *be;
	char *shared;          /* shared_mib, touched, MAP_PRIVATE: forks COW it */
	size_t shared_len;
	struct wl_slot *slots; /* MAP_SHARED, users entries */
	volatile int *stop;    /* MAP_SHARED: set when the duration is over */
	int file_fd;           /* native: the file set, unlinked; -1 none */
	size_t file_len;
	size_t page_size;
};

struct workload {
	const char *name;
	const char *summary;
	/* In the parent before any user is forked. */
	int (*setup)(struct wl_ctx *ctx);
	/* The body of one user; returns 0 or the failing errno. */
	int (*user)(struct wl_ctx *ctx, int id, struct wl_slot *slot);
	/* After every user is reaped: extra metrics through wl_metric(). */
	void (*report)(const struct wl_ctx *ctx, double wall_s);
	/* Syscalls the simulator does not model (mprotect, mremap, madvise):
	 * refused by the engine target and rmapbench-sim. */
	bool native_only;
};

_Static_assert(sizeof(struct wl_slot) == 256, "a user's slot is 256 bytes");

extern const struct workload *const workloads[];
const struct workload *workload_find(const char *name);

/* Output protocol, one line each on stdout, parsed by the harness:
 *   metric NAME VALUE UNIT
 *   unavailable NAME REASON...
 *   info KEY VALUE...                                                   */
void wl_metric(const char *name, double value, const char *unit);
void wl_unavailable(const char *name, const char *reason);

/* Helpers shared by workload bodies: the only way they reach memory. */
int wl_should_stop(const struct wl_ctx *ctx, const struct wl_slot *slot);
char *wl_map(const struct wl_ctx *ctx, size_t len);
void wl_unmap(const struct wl_ctx *ctx, char *p, size_t len);
void wl_write(const struct wl_ctx *ctx, char *p, unsigned char v);
void wl_touch(const struct wl_ctx *ctx, char *p, size_t len, unsigned char v); /* a write per page */
uint64_t wl_read(const struct wl_ctx *ctx, const char *p, size_t len);         /* a read per page */
int wl_fork_child(const struct wl_ctx *ctx, void (*fn)(const struct wl_ctx *, unsigned), unsigned arg);
unsigned wl_rand(unsigned *state);
void wl_compute(const struct wl_ctx *ctx, long iters);
void wl_file_read(const struct wl_ctx *ctx, size_t off, size_t len);

/* The native runtime: returns the process exit status. It forks a process
 * per user, so it takes at most WL_NATIVE_MAX_USERS (pid_max is 32768 on a
 * default kernel); the simulator takes wl_params' whole range. */
#define WL_NATIVE_MAX_USERS 30000
int wl_run(const struct workload *w, struct wl_params *p);
/* The metrics of a finished point, from the slots (both runtimes). */
void wl_report(const struct workload *w, const struct wl_ctx *ctx, double wall_s);
int wl_params_set(struct wl_params *p, const char *key, const char *val, char *err, size_t errlen);
void wl_params_default(struct wl_params *p);
/* "key=value" from the command line: 0 with key (shorter than keylen)
 * and *val, -1 when arg is not that shape. */
int wl_arg_split(const char *arg, char *key, size_t keylen, const char **val);
/* A number for KEY within [min, max] (whole when integer): 0, or -1 with
 * the reason naming KEY; the simulator's machine keys use it too. */
int wl_parse_number(const char *key, const char *val, double min, double max, int integer, double *out, char *err,
		    size_t errlen);

#endif
