/* The kernel errors a run's points recorded, read back: the attributes
 * collect/klog.h writes (kernel_error_N = "COUNT SIGNATURE", the first
 * report's text in kernel_error_N_text_K chunks). A failed point's too:
 * a guest that oopsed failed, and its oops is the result. Values are
 * outside bytes (a database may come from anywhere): a value that is not
 * "COUNT SIGNATURE" is passed over. */
#ifndef RMAPBENCH_KERNEL_ERRORS_H
#define RMAPBENCH_KERNEL_ERRORS_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

struct db_kernel_error {
	const char *workload;
	long users;
	int seq;           /* the point's */
	int n;             /* N of kernel_error_N */
	long count;        /* reports of it on that point */
	const char *signature;
};

/* fn for each signature of each point of run, in point order; -1 on a
 * database error, else 0 (or fn's non-zero, which stops). */
int db_kernel_errors_each(struct db *db, int64_t run, int (*fn)(void *, const struct db_kernel_error *), void *arg);
/* The run's points, done or not, that recorded a kernel error signature
 * or a value above 0 of one of metrics (NULL-ended: the checks that are
 * errors); -1 on a database error. */
int db_points_with_errors(struct db *db, int64_t run, const char *const *metrics);
/* The first report's text of signature n on point seq of run, joined from
 * its chunks into out (NUL-ended, cut at len - 1): 1, 0 none, -1 error. */
int db_kernel_error_text(struct db *db, int64_t run, int seq, int n, char *out, size_t len);

#endif
