/* Where the kernel's time went during a point, from perf samples: the
 * parts of the profile collector (collect_profile.c) that touch no
 * kernel interface, for its tests and fuzzer. A sample is the ring
 * record PERF_SAMPLE_TID | TIME | CALLCHAIN; its kernel frames are
 * named from kallsyms and folded root first; a sample with no kernel
 * frame was in user space, "[user]" (user stacks are not unwound: our
 * workloads are built without frame pointers). */
#ifndef RMAPBENCH_PROFILE_H
#define RMAPBENCH_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "folded.h"
#include "ksyms.h"
#include "sample.h"

#define PROFILE_MAX_CHAIN 127  /* perf_event_max_stack's default */
#define PROFILE_ROWS 60        /* functions with rows a point, children's largest */
#define PROFILE_ROW_MIN_PCT 0.5 /* and at least this share */
#define PROFILE_STORED 400     /* stacks kept with a point, heaviest first */

struct prof_sample {
	uint64_t time;
	uint32_t pid;
	int nr;                         /* kernel frames, leaf first */
	uint64_t ips[FOLDED_MAX_FRAMES]; /* the leaf side of the chain */
};

/* A ring record: 1 a sample into s, 0 another record type, -1 a sample
 * cut short or malformed (a chain longer than the record). */
int profile_parse_record(const unsigned char *rec, size_t len, struct prof_sample *s);
/* s's stack, named by k, into f (count 1). */
void profile_fold(struct folded *f, const struct ksyms *k, const struct prof_sample *s);
/* f's rows into ss: profile.self.F and profile.children.F (percent of
 * the busy samples) for the functions past PROFILE_ROW_MIN_PCT, at most
 * PROFILE_ROWS; profile_samples; and the PROFILE_STORED heaviest stacks
 * as attributes (profile_sym_N names, profile_stack_N "COUNT i;j;k"). */
void profile_rows(struct sample_set *ss, struct folded *f);
/* A metric name for a function's share: "profile.KIND.NAME", cut to fit. */
void profile_metric(char *buf, size_t len, const char *kind, const char *name);

#endif
