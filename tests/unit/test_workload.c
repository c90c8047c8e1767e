/* The workload side: parameters, the job mix, and a real small run of each
 * workload through the runtime (forked here, its output parsed). */
#include "mix.h"
#include "sample.h"
#include "tap.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int run_capture(const char *name, struct wl_params *p, struct sample_set *ss)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		_exit(wl_run(workload_find(name), p));
	}
	close(fds[1]);
	FILE *f = fdopen(fds[0], "r");
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		ss_parse_line(ss, line, "");
	}
	fclose(f);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
	struct wl_params p;
	char err[200];
	wl_params_default(&p);
	CHECK(wl_params_set(&p, "users", "12", err, sizeof(err)) == 0 && p.users == 12, "users set");
	CHECK(wl_params_set(&p, "users", "0", err, sizeof(err)) < 0 && strstr(err, "outside"), "users 0: %s", err);
	CHECK(wl_params_set(&p, "users", "1000001", err, sizeof(err)) < 0, "users above a million refused");
	{
		/* the simulator takes 40,000 users; a native run forks each one */
		struct wl_params big;
		wl_params_default(&big);
		CHECK(wl_params_set(&big, "users", "40000", err, sizeof(err)) == 0, "users 40000 is a parameter");
		struct sample_set ss = { 0 };
		CHECK(run_capture("forkstorm", &big, &ss) == 2 && ss.n == 0,
		      "a native run of 40000 users is refused before it forks");
		ss_free(&ss);
	}
	CHECK(wl_params_set(&p, "shared_mib", "1.5", err, sizeof(err)) < 0 && strstr(err, "not an integer"),
	      "integer parameters refuse fractions: %s", err);
	CHECK(wl_params_set(&p, "nope", "1", err, sizeof(err)) < 0 && strstr(err, "unknown parameter 'nope'"),
	      "unknown parameter named");

	struct mix m;
	CHECK(mix_parse(&m, "cow:3,fork:1", err, sizeof(err)) == 0 && m.total == 4, "mix parses");
	CHECK(mix_parse(&m, "cow:3,dance:1", err, sizeof(err)) < 0 && strstr(err, "unknown task 'dance'"),
	      "unknown task: %s", err);
	CHECK(mix_parse(&m, "cow", err, sizeof(err)) < 0 && strstr(err, "task:weight"), "missing weight: %s", err);
	CHECK(mix_parse(&m, "cow:0", err, sizeof(err)) < 0, "all-zero mix refused");
	CHECK(mix_parse(&m, "cow:1,fork:0,compute:3", err, sizeof(err)) == 0, "mix with a zero weight");
	CHECK(mix_parse(&m, "file:2,compute:1", err, sizeof(err)) == 0 && m.weight[TASK_FILE] == 2, "the file task");
	{
		/* AIM7's disk tests natively: an unlinked file set, read at random */
		struct wl_params fp;
		struct sample_set ss = { 0 };
		wl_params_default(&fp);
		fp.users = 2;
		fp.jobs_per_user = 5;
		fp.file_mib = 4;
		snprintf(fp.mix, sizeof(fp.mix), "file:1");
		CHECK(run_capture("aim7", &fp, &ss) == 0 && ss_find(&ss, "jobs") && ss_find(&ss, "jobs")->value == 10,
		      "a file-reading aim7 point runs its jobs");
		ss_free(&ss);
	}
	{
		/* re-aim-7's deal: every user the same counts but for a share's
		 * fraction, its jobs exactly, drawn without replacement */
		struct wl_ctx ctx = { 0 };
		wl_params_default(&ctx.p);
		ctx.p.jobs_per_user = 97;
		CHECK(mix_parse(&m, "compute:400,fork:100,private:100,file:17", err, sizeof(err)) == 0, "a mix like the paper profile's");
		unsigned rnd = 7, users = 3000, bad = 0, files = 0, lo = 97, hi = 0;
		for (unsigned u = 0; u < users; u++) {
			struct mix_deck d = { 0 };
			unsigned seen[NR_TASKS] = { 0 };
			for (int j = 0; j < 97; j++)
				seen[mix_draw(&m, &d, &ctx, &rnd)]++;
			bad += d.total != 0 || seen[TASK_COW] || seen[TASK_COMPUTE] < 62 || seen[TASK_COMPUTE] > 63 ||
			       seen[TASK_FORK] < 15 || seen[TASK_FORK] > 16 || seen[TASK_PRIVATE] < 15 ||
			       seen[TASK_PRIVATE] > 16;
			files += seen[TASK_FILE];
			lo = seen[TASK_FILE] < lo ? seen[TASK_FILE] : lo;
			hi = seen[TASK_FILE] > hi ? seen[TASK_FILE] : hi;
		}
		CHECK(!bad, "%u of %u users dealt other than 62-63 compute, 15-16 fork and private, 97 in all", bad,
		      users);
		CHECK(lo == 2 && hi == 3, "file jobs a user: %u to %u, not 2 to 3 (97 x 17 / 617 = 2.67)", lo, hi);
		double mean = (double)files / users;
		CHECK(mean > 2.62 && mean < 2.72, "file jobs a user on average %.3f, not 2.67", mean);
		struct mix_deck d = { 0 };
		mix_deal(&m, 617, &d, &rnd);
		CHECK(d.total == 617 && d.left[TASK_COMPUTE] == 400 && d.left[TASK_FILE] == 17,
		      "a deal of the mix's total is its weights");
		ctx.p.duration_s = 1;
		memset(&d, 0, sizeof(d));
		unsigned seen[NR_TASKS] = { 0 };
		for (int j = 0; j < 2 * 617; j++)
			seen[mix_draw(&m, &d, &ctx, &rnd)]++;
		CHECK(seen[TASK_COMPUTE] == 800 && seen[TASK_FILE] == 34 && d.total == 0,
		      "a point run for a duration deals the mix's weights anew (%u compute, %u file)", seen[TASK_COMPUTE],
		      seen[TASK_FILE]);
	}

	const char *names[] = { "aim7", "forkstorm", "cowstorm", "reclaim" };
	for (size_t i = 0; i < 4; i++) {
		struct sample_set ss = { 0 };
		wl_params_default(&p);
		p.users = 3;
		p.jobs_per_user = 5;
		p.shared_mib = 2;
		p.passes = 1;
		int rc = run_capture(names[i], &p, &ss);
		const struct sample *jobs = ss_find(&ss, "jobs");
		CHECK(rc == 0 && jobs && jobs->value == 15, "%s: 3 users x 5 jobs = %g jobs", names[i],
		      jobs ? jobs->value : -1);
		const struct sample *jpm = ss_find(&ss, "jobs_per_min");
		CHECK(jpm && jpm->value > 0, "%s: jobs_per_min measured", names[i]);
		ss_free(&ss);
	}
	/* family_kib: the family's COW set is the same whatever the users,
	 * and each user has at least a page of it */
	const long users[] = { 4, 8, 8 }, family_kib[] = { 1024, 1024, 4 }, want[] = { 256, 256, 8 };
	for (size_t i = 0; i < 3; i++) {
		struct sample_set ss = { 0 };
		wl_params_default(&p);
		p.users = users[i];
		p.jobs_per_user = 1;
		p.family_kib = family_kib[i];
		p.cow_fraction = 1;
		p.passes = 1;
		snprintf(p.mix, sizeof(p.mix), "compute:1"); /* no job of its own COW-writes */
		int rc = run_capture("reclaim", &p, &ss);
		const struct sample *cow = ss_find(&ss, "cow_pages_written");
		CHECK(rc == 0 && cow && cow->value == (double)want[i], "family_kib=%ld over %ld users: %g COW pages, want %ld",
		      family_kib[i], users[i], cow ? cow->value : -1, want[i]);
		ss_free(&ss);
	}
	CHECK(wl_params_set(&p, "family_kib", "-1", err, sizeof(err)) < 0, "family_kib below 0 refused");
	/* cow_spread: the same COW set, written over the jobs, all of it by the last */
	for (long spread = 0; spread <= 1; spread++) {
		struct sample_set ss = { 0 };
		wl_params_default(&p);
		p.users = 3;
		p.jobs_per_user = 4;
		p.shared_kib = 40;
		p.cow_fraction = 1;
		p.cow_spread = spread;
		p.passes = 1;
		snprintf(p.mix, sizeof(p.mix), "compute:1");
		int rc = run_capture("reclaim", &p, &ss);
		const struct sample *cow = ss_find(&ss, "cow_pages_written");
		CHECK(rc == 0 && cow && cow->value == 30, "cow_spread=%ld: 3 users x 10 pages written (%g)", spread,
		      cow ? cow->value : -1);
		ss_free(&ss);
	}
	CHECK(wl_params_set(&p, "cow_spread", "2", err, sizeof(err)) < 0, "cow_spread is 0 or 1: %s", err);

	struct sample_set ss = { 0 };
	wl_params_default(&p);
	p.users = 2;
	p.duration_s = 0.5;
	run_capture("forkstorm", &p, &ss);
	const struct sample *fps = ss_find(&ss, "forks_per_s"), *forks = ss_find(&ss, "forks");
	CHECK(fps && forks && forks->value > 0 && fps->value > 0, "duration mode: forkstorm forks for 0.5 s (%g)",
	      forks ? forks->value : -1);
	ss_free(&ss);
	return tap_done();
}
