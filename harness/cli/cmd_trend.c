/* `rmapbench trend [SUITE]`: a suite's nights, their change points and
 * the trend page (harness/jobs/trend_job.c). Exit status: 0, 1 --check
 * found a change for the worse within the last trend_check_nights
 * nights, 2 usage or database. */
#include "commands.h"
#include "flags.h"
#include "run_here.h"
#include "trend_job.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static void trend_usage(void)
{
	fputs("usage: rmapbench trend [SUITE] [--metric M] [--nights N] [--since YYYY-MM-DD] [--json]\n"
	      "                       [--check] [--config FILE]\n"
	      "  every night of SUITE (and of its nightly parts SUITE-vm, -walkcost, -bench) on each machine,\n"
	      "  per workload, users and metric: the nights' medians and spreads, the baseline's band, the\n"
	      "  flagged nights, what changed each night, and the change points across nights (E-Divisive\n"
	      "  means with Welch's t-test); writes the trend page. No SUITE: every suite with nights.\n"
	      "  --json     the same as JSON on stdout, for dashboards\n"
	      "  --check    exit 1 when a series' latest change point is a regression within the last\n"
	      "             trend_check_nights nights (--config's, else 5)\n"
	      "  --config   the suite's config: its headline_metrics are always drawn\n",
	      stdout);
}

static bool is_date(const char *s)
{
	static const char shape[] = "dddd-dd-dd";
	if (strlen(s) < sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return false;
	return strlen(s) == 10 || s[10] == 'T';
}

int cmd_trend(int argc, char **argv, const char *db_path)
{
	const char *pos[1], *config = NULL;
	unsigned long nights = 0;
	bool help = false;
	int npos;
	struct trend_job_opts o = { 0 };
	const struct flag flags[] = {
		{ "--metric", FLAG_STRING, &o.metric, 0, 0, NULL },
		{ "--nights", FLAG_ULONG, &nights, 1000000, 0, NULL },
		{ "--since", FLAG_STRING, &o.since, 0, 0, NULL },
		{ "--json", FLAG_BOOL, &o.json, 0, 0, NULL },
		{ "--check", FLAG_BOOL, &o.check, 0, 0, NULL },
		{ "--config", FLAG_STRING, &config, 0, 0, NULL },
		{ "--help", FLAG_BOOL, &help, 0, 0, NULL },
		{ NULL, 0, NULL, 0, 0, NULL },
	};
	if (flags_parse("trend", flags, argc, argv, pos, 1, &npos) < 0)
		return 2;
	if (help) {
		trend_usage();
		return 0;
	}
	if (o.since && !is_date(o.since)) {
		rb_error("trend: --since %s: expected a date, YYYY-MM-DD", o.since);
		return 2;
	}
	o.suite = npos ? pos[0] : NULL;
	o.nights = (int)nights;
	struct config cfg;
	char err[600], page[PATH_MAX + 32] = "", shown[PATH_MAX + 64];
	config_defaults(&cfg);
	if (config && config_load(&cfg, config, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		config_free(&cfg);
		return 2;
	}
	o.cfg = &cfg;
	struct db db;
	int rc = 2;
	if (db_open_said(db_path, &db) == 0) {
		rc = trend_job(&db, &o, page, sizeof(page));
		db_close(&db);
	}
	if (page[0] && !o.json)
		printf("page: %s\n", rb_path_shown(page, shown, sizeof(shown)));
	config_free(&cfg);
	return rc;
}
