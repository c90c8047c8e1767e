#include "progress.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void progress_init(struct progress *p, int total)
{
	memset(p, 0, sizeof(*p));
	p->tty = isatty(2);
	p->total = total;
}

void progress_point(struct progress *p, int index, const char *fmt, ...)
{
	va_list ap;
	p->index = index;
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof(p->what), fmt, ap);
	va_end(ap);
	p->last = -1;
	progress_tick(p, 0);
}

void progress_tick(struct progress *p, double elapsed)
{
	if (!p || !p->tty || (elapsed - p->last < 0.5 && p->last >= 0))
		return;
	p->last = elapsed;
	fprintf(stderr, "\r\033[K[%d/%d] %s  %.0fs", p->index, p->total, p->what, elapsed);
	fflush(stderr);
}

void progress_done(struct progress *p)
{
	if (p && p->tty)
		fputs("\r\033[K", stderr);
}
