/* Bins of CPU time busy and of tasks' time waiting on the device. */
#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void grow(struct timeline *tl, size_t need)
{
	if (need <= tl->nbins)
		return;
	size_t n = tl->nbins ? tl->nbins : 1024;
	while (n < need)
		n *= 2;
	for (int k = 0; k < TL_NR; k++) {
		double *p = realloc(tl->bin[k], n * sizeof(*p));
		if (!p)
			abort();
		memset(p + tl->nbins, 0, (n - tl->nbins) * sizeof(*p));
		tl->bin[k] = p;
	}
	tl->nbins = n;
}

void tl_add(struct timeline *tl, enum tl_kind k, double a, double b)
{
	if (!(b > a) || a < 0)
		return;
	size_t first = (size_t)(a / TL_BIN_NS), last = (size_t)(b / TL_BIN_NS);
	grow(tl, last + 1);
	for (size_t i = first; i <= last; i++) {
		double lo = fmax(a, (double)i * TL_BIN_NS), hi = fmin(b, (double)(i + 1) * TL_BIN_NS);
		if (hi > lo)
			tl->bin[k][i] += hi - lo;
	}
}

void tl_idle(const struct timeline *tl, long cpus, double end, double *idle, double *iowait)
{
	*idle = *iowait = 0;
	for (size_t i = 0; (double)i * TL_BIN_NS < end; i++) {
		double len = fmin(TL_BIN_NS, end - (double)i * TL_BIN_NS);
		double busy = i < tl->nbins ? tl->bin[TL_BUSY][i] : 0, wait = i < tl->nbins ? tl->bin[TL_IOWAIT][i] : 0;
		double free = (double)cpus * len - busy;
		if (free <= 0)
			continue;
		*idle += free;
		*iowait += fmin(free, wait);
	}
}

int tl_windows(const struct timeline *tl, long cpus, double end, int n, double *step_ns, double *sys_pct,
	       double *iowait_pct)
{
	size_t nb = (size_t)ceil(end / TL_BIN_NS);
	if (!nb || n <= 0 || cpus <= 0)
		return 0;
	size_t per = (nb + (size_t)n - 1) / (size_t)n;
	int w = 0;
	*step_ns = (double)per * TL_BIN_NS;
	for (size_t first = 0; first < nb; first += per, w++) {
		double cap = 0, sys = 0, wait = 0;
		for (size_t i = first; i < first + per && i < nb; i++) {
			double len = fmin(TL_BIN_NS, end - (double)i * TL_BIN_NS);
			double busy = i < tl->nbins ? tl->bin[TL_BUSY][i] : 0, free = (double)cpus * len - busy;
			cap += (double)cpus * len;
			sys += i < tl->nbins ? fmin(tl->bin[TL_SYS][i], (double)cpus * len) : 0;
			if (free > 0 && i < tl->nbins)
				wait += fmin(free, tl->bin[TL_IOWAIT][i]);
		}
		sys_pct[w] = cap > 0 ? 100 * sys / cap : 0;
		iowait_pct[w] = cap > 0 ? 100 * wait / cap : 0;
	}
	return w;
}

void tl_free(struct timeline *tl)
{
	for (int k = 0; k < TL_NR; k++)
		free(tl->bin[k]);
	memset(tl, 0, sizeof(*tl));
}
