/* Kernel error signatures as verdict rows (signatures.c): a row per
 * (workload, users, signature), its metric "kernel_error: SIGNATURE",
 * decided by appearance, with the first report's text. */
#ifndef RMAPBENCH_SIGNATURES_H
#define RMAPBENCH_SIGNATURES_H

struct side;
struct comparison;

#define SIGNATURE_ROW_PREFIX "kernel_error: "
#define SIGNATURE_TEXT_MAX 4096

/* Adds the rows to out; -1 on a database error (said). */
int signatures_compare(const struct side *a, const struct side *b, struct comparison *out);

#endif
