/* Workload parameters: one table, so the harness, the guest agent and the
 * command line all accept the same keys with the same checks. */
#include "workload.h"
#include "mix.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ptype { P_LONG, P_DOUBLE, P_UINT, P_STR };

struct pdesc {
	const char *key;
	enum ptype type;
	size_t off;
	double min, max;
};

#define PL(k, lo, hi) { #k, P_LONG, offsetof(struct wl_params, k), lo, hi }
#define PD(k, lo, hi) { #k, P_DOUBLE, offsetof(struct wl_params, k), lo, hi }

static const struct pdesc pdescs[] = {
	PL(users, 1, 1000000), /* native runs: WL_NATIVE_MAX_USERS */
	PD(duration_s, 0, 86400),
	PL(jobs_per_user, 1, 100000000),
	PL(shared_mib, 0, 65536),
	PL(shared_kib, 0, 64L << 20),
	PL(family_kib, 0, 64L << 20),
	PD(cow_fraction, 0, 1),
	PL(cow_spread, 0, 1),
	PL(cow_pages, 1, 1 << 24),
	PL(private_mib, 0, 65536),
	PL(child_kib, 0, 1 << 24),
	PL(compute_iters, 0, 1000000000),
	PL(file_mib, 0, 1 << 20),
	PL(file_kib, 0, 1 << 20),
	PL(passes, 1, 1000000),
	PL(hunt_kib, 4, 1 << 20),
	{ "seed", P_UINT, offsetof(struct wl_params, seed), 0, 4294967295.0 },
	PD(max_s, 1, 86400),
	{ "mix", P_STR, offsetof(struct wl_params, mix), 0, 0 },
};

void wl_params_default(struct wl_params *p)
{
	memset(p, 0, sizeof(*p));
	p->users = 8;
	p->jobs_per_user = 20;
	p->shared_mib = 16;
	p->cow_fraction = 0.25;
	p->cow_pages = 16;
	p->private_mib = 1;
	p->child_kib = 64;
	p->compute_iters = 20000;
	p->file_kib = 64;
	p->passes = 4;
	p->hunt_kib = 256;
	p->seed = 1;
	p->max_s = 600;
	snprintf(p->mix, sizeof(p->mix), "cow:3,fork:2,private:2,compute:1");
}

int wl_arg_split(const char *arg, char *key, size_t keylen, const char **val)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || (size_t)(eq - arg) >= keylen)
		return -1;
	snprintf(key, keylen, "%.*s", (int)(eq - arg), arg);
	*val = eq + 1;
	return 0;
}

int wl_parse_number(const char *key, const char *val, double min, double max, int integer, double *out, char *err,
		    size_t errlen)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(val, &end);
	if (errno || end == val || *end || !isfinite(v)) {
		snprintf(err, errlen, "%s: '%s' is not a finite number", key, val);
		return -1;
	}
	if (v < min || v > max) {
		snprintf(err, errlen, "%s: %s is outside [%g, %g]", key, val, min, max);
		return -1;
	}
	if (integer && v != (double)(long long)v) {
		snprintf(err, errlen, "%s: '%s' is not an integer", key, val);
		return -1;
	}
	*out = v;
	return 0;
}

int wl_params_set(struct wl_params *p, const char *key, const char *val, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(pdescs) / sizeof(pdescs[0]); i++) {
		const struct pdesc *d = &pdescs[i];
		if (strcmp(d->key, key))
			continue;
		void *dst = (char *)p + d->off;
		if (d->type == P_STR) {
			if (strlen(val) >= sizeof(p->mix)) {
				snprintf(err, errlen, "%s: value too long", key);
				return -1;
			}
			/* the one string: checked here, when a config is read,
			 * not when each point runs */
			struct mix m;
			char why[200];
			if (!strcmp(key, "mix") && mix_parse(&m, val, why, sizeof(why)) < 0) {
				snprintf(err, errlen, "%s: %s", key, why);
				return -1;
			}
			snprintf(dst, sizeof(p->mix), "%s", val);
			return 0;
		}
		double v;
		if (wl_parse_number(key, val, d->min, d->max, d->type != P_DOUBLE, &v, err, errlen) < 0)
			return -1;
		if (d->type == P_LONG)
			*(long *)dst = (long)v;
		else if (d->type == P_UINT)
			*(unsigned *)dst = (unsigned)v;
		else
			*(double *)dst = v;
		return 0;
	}
	snprintf(err, errlen, "unknown parameter '%s'", key);
	return -1;
}
