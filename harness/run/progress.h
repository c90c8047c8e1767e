/* One status line on stderr, only when stderr is a terminal. */
#ifndef RMAPBENCH_PROGRESS_H
#define RMAPBENCH_PROGRESS_H

struct progress {
	int tty;
	int index, total;
	char what[160];
	double last;
};

void progress_init(struct progress *p, int total);
void progress_point(struct progress *p, int index, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void progress_tick(struct progress *p, double elapsed);
void progress_done(struct progress *p);

#endif
