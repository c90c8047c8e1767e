/* /proc/PID/maps, read as hostile text: the private anonymous mappings a
 * trace can follow (anonymous memory, [heap], [stack]), in pages. */
#ifndef RECORD_MAPS_H
#define RECORD_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define MAP_PROT_R 1
#define MAP_PROT_W 2
#define MAP_PROT_X 4

struct anon_map {
	unsigned long start, end; /* pages, [start, end) */
	int prot;
};

#define MAPS_HUGE_KEPT 16

struct anon_maps {
	struct anon_map *v;
	size_t n, cap;
	size_t skipped_huge; /* larger than the trace takes at once */
	unsigned long huge_start[MAPS_HUGE_KEPT]; /* the first of them: counted once each */
	size_t nhuge;
};

/* One line: 1 a private anonymous mapping (into *m), 0 another kind, -1
 * not a maps line. Addresses become page numbers (page_shift). */
int maps_parse_line(const char *line, size_t len, unsigned page_shift, struct anon_map *m);
/* Every private anonymous mapping of task tid, sorted. 0, or -1 (errno)
 * when the task is gone. At most max_pages a mapping; larger ones are
 * counted in skipped_huge. */
int maps_read(pid_t tid, unsigned page_shift, unsigned long max_pages, struct anon_maps *out);
void maps_free(struct anon_maps *m);

#endif
