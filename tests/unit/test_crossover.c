/* AIM7's crossover read from recorded points: interpolated between the
 * points around the line, per workload, failed points and other runs
 * ignored, "not reached" and "from the first point" said as such. */
#include "crossover.h"
#include "metrics.h"
#include "db.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/rmapbench-xo-XXXXXX";

static void point(struct db *db, int64_t run, int seq, const char *w, long users, int rep, double jpm_user,
		  const char *status)
{
	char err[1200];
	struct sample_set ss = { 0 };
	ss_add(&ss, "jobs_per_min_per_user", jpm_user, "jobs/min");
	struct point_rec pr = { seq, w, users, rep, "", status, NULL, "t0", "t1" };
	if (db_point_record(db, run, &pr, &ss, NULL, err, sizeof(err)))
		fprintf(stderr, "# %s\n", err);
	ss_free(&ss);
}

int main(void)
{
	struct db db;
	char err[1200], path[600];
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/x.db", dir);
	if (db_open(path, &db, err, sizeof(err)))
		return 1;
	struct run_meta m = { "rev", "h", "6.1", NULL, "host", NULL, "t", "", NULL, NULL, NULL };
	int64_t run, other;
	db_run_begin(&db, &m, &run, err, sizeof(err));
	db_run_begin(&db, &m, &other, err, sizeof(err));
	/* aim7: 40 and 20 per user, then 5 and 7 (mean 6) at 3000 users */
	point(&db, run, 1, "aim7", 1000, 1, 40, "done");
	point(&db, run, 2, "aim7", 2000, 1, 20, "done");
	point(&db, run, 3, "aim7", 3000, 1, 5, "done");
	point(&db, run, 4, "aim7", 3000, 2, 7, "done");
	point(&db, run, 5, "aim7", 2500, 1, 1, "failed"); /* a failed point says nothing */
	/* cowstorm never falls to the line; reclaim is below it from the start */
	point(&db, run, 6, "cowstorm", 10, 1, 900, "done");
	point(&db, run, 7, "cowstorm", 100, 1, 90, "done");
	point(&db, run, 8, "reclaim", 2, 1, 8, "done");
	point(&db, run, 9, "reclaim", 4, 1, 3, "done");
	point(&db, other, 1, "aim7", 1000, 1, 1, "done");

	struct crossover c[4];
	int n = crossover_find(&db, run, c, 4);
	CHECK(n == 3, "one crossover per workload (%d)", n);
	CHECK(!strcmp(c[0].workload, "aim7") && c[0].reached && c[0].first_users == 3000 && !c[0].from_first,
	      "aim7 reaches the line first at 3000 users");
	/* 20 at 2000, 6 at 3000: 10 is crossed 10/14 of the way */
	double want = 2000 + 1000 * (10.0 / 14.0);
	CHECK(c[0].at_users > want - 1e-6 && c[0].at_users < want + 1e-6, "interpolated at %.1f users (%.1f)",
	      c[0].at_users, want);
	/* crossed at 2714: the measured point nearest is 3000, not 2000 */
	CHECK(c[0].above_users == 2000 && crossover_nearest_point(&c[0]) == 3000, "nearest point %ld (above it %ld)",
	      crossover_nearest_point(&c[0]), c[0].above_users);
	struct crossover early = c[0];
	early.at_users = 2400;
	CHECK(crossover_nearest_point(&early) == 2000, "a crossing at 2400 is nearest 2000");
	CHECK(!c[1].reached && c[1].max_users == 100 && c[1].last_jpm_user == 90, "cowstorm: not reached");
	/* which way is better: a rate named *_per_s is not a time named *_s */
	CHECK(metric_rule("pages_read_per_s")->better == +1 && metric_rule("wall_s")->better == -1 &&
		      metric_rule("lock_wait_ns")->better == -1,
	      "pages_read_per_s higher is better, wall_s and lock_wait_ns lower");
	CHECK(c[2].reached && c[2].from_first && c[2].first_users == 2, "reclaim: below the line from the first point");
	char line[256];
	crossover_describe(&c[0], line, sizeof(line));
	CHECK(strstr(line, "aim7: crossed at 2714 users") != NULL, "said: %s", line);
	crossover_describe(&c[1], line, sizeof(line));
	CHECK(strstr(line, "not reached up to 100 users (90.0 jobs/min per user there)") != NULL, "said: %s", line);
	crossover_describe(&c[2], line, sizeof(line));
	CHECK(strstr(line, "from the first point (2 users)") != NULL, "said: %s", line);
	CHECK(crossover_find(&db, 999, c, 4) == 0, "a run without points has none");
	db_close(&db);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? 1 : tap_done();
}
