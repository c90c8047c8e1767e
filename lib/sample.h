/* What one point measured: values with units, and metrics that could not be
 * measured with the reason why (recorded as such, never as zero). */
#ifndef RMAPBENCH_SAMPLE_H
#define RMAPBENCH_SAMPLE_H

#include <stddef.h>

struct sample {
	char metric[64];
	char unit[24];
	double value;
	int unavailable;
	char reason[240];
};

struct attr {
	char key[48];
	char value[208];
};

struct sample_set {
	struct sample *v;
	size_t n, cap;
	struct attr *attrs;   /* facts about the point: tool versions, limits */
	size_t nattrs, attrs_cap;
};

/* A value that is not finite is recorded as unavailable, with the reason. */
void ss_add(struct sample_set *s, const char *metric, double value, const char *unit);
void ss_unavailable(struct sample_set *s, const char *metric, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ss_attr(struct sample_set *s, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A text longer than an attribute (a kernel report's lines) as the
 * attributes KEY_text_1, KEY_text_2, ...: each chunk at most
 * ATTR_TEXT_CHUNK bytes, a newline written "\n" and a backslash "\\",
 * at most maxlen bytes of text. attr_text_unescape appends one chunk's
 * text to out (NUL-ended, never past outlen). */
#define ATTR_TEXT_CHUNK 200
void ss_attr_text(struct sample_set *s, const char *key, const char *text, size_t maxlen);
void attr_text_unescape(const char *chunk, char *out, size_t outlen);
const struct sample *ss_find(const struct sample_set *s, const char *metric);
const struct attr *ss_attr_find(const struct sample_set *s, const char *key);
void ss_free(struct sample_set *s);
/* Parses the workload protocol ("metric N V U" / "unavailable N why" /
 * "info K V"); returns lines it did not understand. */
int ss_parse_line(struct sample_set *s, const char *line, const char *prefix);

#endif
