/* The config parser: every error names file and line (or the flag). */
#include "config.h"
#include "tap.h"
#include "walk_calib.h"

#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int parse(const char *text, char *err, size_t len)
{
	struct config c;
	config_defaults(&c);
	int rc = config_parse_text(&c, "x.conf", text, err, len);
	config_free(&c);
	return rc;
}

static void expect_error(const char *text, const char *want, const char *what)
{
	char err[600] = "";
	int rc = parse(text, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, want), "%s: error '%s' contains '%s'", what, err, want);
}

int main(void)
{
	struct config c;
	char err[600] = "";
	config_defaults(&c);
	int rc = config_parse_text(&c, "ok.conf",
				   "# a comment\n\nworkloads = aim7, forkstorm\nusers = 1 2,4\nrepetitions=3\n"
				   "shared_mib = 32  # trailing comment\ncollectors = cpu lock\nstress_ng = --vm 1 --vm-bytes 5%\n",
				   err, sizeof(err));
	CHECK(rc == 0, "a valid config parses (%s)", err);
	CHECK(c.n_workloads == 2 && !strcmp(c.workloads[1], "forkstorm"), "workload list split on commas");
	CHECK(c.n_users == 3 && c.users[2] == 4, "users split on spaces and commas");
	CHECK(c.repetitions == 3, "repetitions");
	CHECK(config_param(&c, "shared_mib") && !strcmp(config_param(&c, "shared_mib"), "32"),
	      "a workload parameter is kept for the points");
	CHECK(config_has_collector(&c, "lock") && !config_has_collector(&c, "pfm"), "collector selection");
	CHECK(!strcmp(c.stress_ng, "--vm 1 --vm-bytes 5%"), "stress_ng arguments kept whole");

	CHECK(config_set(&c, "users=7", err, sizeof(err)) == 0 && c.n_users == 1 && c.users[0] == 7,
	      "--set overrides a key");
	CHECK(strstr(c.text, "users=7  # --set"), "--set is recorded in the config text of the run");
	CHECK(config_set(&c, "nosuch=1", err, sizeof(err)) < 0 && strstr(err, "--set nosuch=1: unknown key 'nosuch'"),
	      "--set error names the flag: %s", err);
	CHECK(config_set(&c, "users", err, sizeof(err)) < 0 && strstr(err, "expected KEY=VALUE"),
	      "--set without '=': %s", err);
	config_free(&c);

	expect_error("users = 4\n\n\nbogus = 1\n", "x.conf:4: unknown key 'bogus'", "unknown key with its line");
	expect_error("workloads = aim7 nosuch\n", "x.conf:1: workloads: unknown workload 'nosuch'", "unknown workload");
	expect_error("users = 0\n", "x.conf:1: users: 0 is outside [1, 1000000]", "users out of range");
	{
		/* the walk calibration file: bounded, and a bad line named */
		struct walk_calib wc;
		char e[300] = "";
		CHECK(walk_calib_parse("# c\n348.1\t5779\t0.946\t12\t6.18.44-x\n", "w.tsv", &wc, e, sizeof(e)) == 0 &&
			      wc.vma_ns > 348 && wc.vma_ns < 348.2 && !strcmp(wc.release, "6.18.44-x"),
		      "a calibration line parses (%s)", e);
		CHECK(walk_calib_parse("# c\nfast\n", "w.tsv", &wc, e, sizeof(e)) < 0 && strstr(e, "w.tsv:2: expected"),
		      "a bad calibration line is named: %s", e);
		CHECK(walk_calib_parse("0\t1\t1\t3\tr\n", "w.tsv", &wc, e, sizeof(e)) < 0 && strstr(e, "not a cost"),
		      "a walk cost of 0 is refused: %s", e);
		CHECK(walk_calib_parse("# only comments\n", "w.tsv", &wc, e, sizeof(e)) < 0 && strstr(e, "no calibration line"),
		      "a file without the line: %s", e);
		CHECK(walk_calib_parse("348.1\t5779\t0.946\t12\tr\ncurve\t2000:700000,16000:21500000\n", "w.tsv", &wc, e,
				       sizeof(e)) == 0 && wc.ncurve == 2 && wc.curve[1].n == 16000 &&
			      wc.curve[1].ns_per_page == 21500000,
		      "the curve line parses (%s)", e);
		CHECK(walk_calib_parse("348.1\t5779\t0.946\t12\tr\nothers\tzero-page\n", "w.tsv", &wc, e, sizeof(e)) ==
				  0 &&
			      wc.others_mapped,
		      "the others' mapping is read (%s)", e);
		CHECK(walk_calib_parse("348.1\t5779\t0.946\t12\tr\nothers\tnone\n", "w.tsv", &wc, e, sizeof(e)) < 0 &&
			      strstr(e, "w.tsv:2: expected one 'others"),
		      "an unknown mapping is named: %s", e);
		CHECK(walk_calib_parse("348.1\t5779\t0.946\t12\tr\n", "w.tsv", &wc, e, sizeof(e)) == 0 && !wc.others_mapped,
		      "a file without it was measured with the ptes dropped");
		CHECK(walk_calib_parse("348.1\t5779\t0.946\t12\tr\n", "w.tsv", &wc, e, sizeof(e)) == 0 && wc.ncurve == 0,
		      "a file from before the curve loads without one");
		CHECK(walk_calib_parse("348.1\t5779\t0.946\t12\tr\ncurve\t4000:9,2000:10\n", "w.tsv", &wc, e, sizeof(e)) <
				      0 && strstr(e, "w.tsv:2: sim_walk_curve: point 2"),
		      "a curve whose VMAs fall is named: %s", e);
		CHECK(walk_calib_parse("348.1\t5779\t0.946\t12\tr\n348.1\t5779\t0.946\t12\tr\n", "w.tsv", &wc, e,
				       sizeof(e)) < 0 && strstr(e, "w.tsv:2: a second calibration line"),
		      "two calibration lines: %s", e);
		/* the curve from samples: each N's low quantile (the nearest rank
		 * below 0.1: the lowest of up to ten), the page-out's part off,
		 * never falling */
		struct walk_calib m = { .npts = 7 };
		const long n[] = { 0, 0, 100, 100, 100, 200, 300 };
		const double y[] = { 10, 30, 120, 500, 115, 100, 400 };
		for (int i = 0; i < 7; i++)
			m.pts[i] = (struct walk_point){ .n = n[i], .ns_per_page = y[i] };
		walk_calib_make_curve(&m);
		char text[200];
		CHECK(m.ncurve == 3 && walk_calib_curve_text(&m, text, sizeof(text)) == 0 &&
			      !strcmp(text, "100:105,200:105,300:390"),
		      "curve from the quantiles less N=0's, kept from falling: %s", m.ncurve ? text : "none");
		{
			/* twenty samples: the quantile is the second lowest, so one
			 * sample that met a lucky cache is not the answer either */
			struct walk_calib t = { .npts = 22 };
			t.pts[0] = (struct walk_point){ .n = 0, .ns_per_page = 0 };
			t.pts[1] = (struct walk_point){ .n = 0, .ns_per_page = 0 };
			for (int i = 2; i < 22; i++)
				t.pts[i] = (struct walk_point){ .n = 400, .ns_per_page = i == 5 ? 50 : 100 + 10 * i };
			walk_calib_make_curve(&t);
			CHECK(t.ncurve == 1 && walk_calib_curve_text(&t, text, sizeof(text)) == 0 &&
				      !strcmp(text, "400:120"),
			      "twenty samples: the second lowest: %s", t.ncurve ? text : "none");
		}
		{
			/* the spread is of the rounds' own quantiles, and of the
			 * walks, not the page-out's microseconds */
			struct walk_calib b = { .npts = 8 };
			const double r[] = { 7012, 817381, 6986, 900000, 15745, 1083615, 40000, 2000000 };
			for (int i = 0; i < 8; i++)
				b.pts[i] = (struct walk_point){ .n = i % 2 ? 2000 : 0, .ns_per_page = r[i], .round = i / 4 };
			long at = 0;
			double sp = walk_calib_spread(&b, &at);
			CHECK(at == 2000 && sp > 0.325 && sp < 0.326, "rounds of lowest 817,381 and 1,083,615: %.4f at %ld",
			      sp, at);
		}
		/* what calibrate-walk will not keep: rounds the noise outweighed */
		m.vma_ns = 2.5;
		CHECK(walk_calib_check(&m, e, sizeof(e)) == 0, "a rising calibration is kept (%s)", e);
		m.vma_ns = -385;
		CHECK(walk_calib_check(&m, e, sizeof(e)) < 0 && strstr(e, "-385"), "a falling slope is not: %s", e);
		struct walk_calib z = { .npts = 3, .vma_ns = 1 };
		const double slow0[] = { 69165, 34104, 27165 }; /* one slow round with no process: this machine's */
		for (int i = 0; i < 3; i++)
			z.pts[i] = (struct walk_point){ .n = i * 40L, .ns_per_page = slow0[i] };
		walk_calib_make_curve(&z);
		CHECK(walk_calib_check(&z, e, sizeof(e)) < 0 && strstr(e, "no walk on the curve"),
		      "a curve of nothing is not: %s", e);
	}
	{
		/* a calibration family's other processes keep a present pte of
		 * another page (not the emptied, freed pte table MADV_DONTNEED
		 * leaves since 6.14), and not the family's data */
		const size_t pages = 16, len = pages * 4096;
		char *r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(r != MAP_FAILED, "a region to map");
		if (r != MAP_FAILED) {
			memset(r, 7, len);
			CHECK(walk_calib_map_other_page(r, len) == 0, "every pte present again");
			size_t present = 0, zero = 0;
			int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
			for (size_t i = 0; i < pages && fd >= 0; i++) {
				uint64_t ent = 0;
				if (pread(fd, &ent, sizeof(ent), (off_t)(((uintptr_t)r / 4096 + i) * sizeof(ent))) ==
				    (ssize_t)sizeof(ent))
					present += (ent >> 63) & 1;
				zero += r[i * 4096] == 0;
			}
			if (fd >= 0)
				close(fd);
			CHECK(present == pages && zero == pages, "%zu of %zu present, %zu the zero page", present,
			      pages, zero);
			munmap(r, len);
		}
	}
	expect_error("sim_cpus = 0\n", "x.conf:1: sim_cpus: 0 is outside [1, 4096]", "a machine key is checked");
	expect_error("sim_cpus = 2.5\n", "sim_cpus: '2.5' is not an integer", "sim_cpus is whole");
	expect_error("sim_nosuch = 1\n", "x.conf:1: unknown key 'sim_nosuch'", "an unknown machine key");
	expect_error("sim_walk_curve = 100:5,50:6\n", "x.conf:1: sim_walk_curve: point 2: VMAS must rise",
		     "a walk curve is checked, its line named");
	CHECK(parse("sim_walk_curve = 2000:700000,16000:21500000\n", err, sizeof(err)) == 0, "a walk curve is taken (%s)",
	      err);
	{
		/* above pid_max's reach only the simulator may go; which target
		 * is known only once the whole config is read */
		char path[] = "/tmp/rmapbench-cfg-XXXXXX";
		int fd = mkstemp(path);
		const char *t = "users = 40000\ntarget = host\n";
		CHECK(fd >= 0 && write(fd, t, strlen(t)) == (ssize_t)strlen(t), "temp config written");
		close(fd);
		struct config big;
		const char *eng[] = { "target=engine" };
		CHECK(config_load_set(&big, path, NULL, 0, err, sizeof(err)) < 0 && strstr(err, path) &&
			      strstr(err, "users: 40000 is above 30000"),
		      "40000 host users refused, the file named: %s", err);
		config_free(&big);
		CHECK(config_load_set(&big, path, eng, 1, err, sizeof(err)) == 0 && big.users[0] == 40000,
		      "40000 engine users taken (%s)", err);
		config_free(&big);
		unlink(path);
	}
	expect_error("users = ten\n", "x.conf:1: users: 'ten' is not an integer", "users not a number");
	expect_error("repetitions = 2.5\n", "repetitions: '2.5' is not an integer", "repetitions not an integer");
	expect_error("cow_fraction = 1.5\n", "cow_fraction: 1.5 is outside [0, 1]", "workload parameter range");
	expect_error("# ok\njust words\n", "x.conf:2: expected 'key = value'", "a line without '='");
	expect_error(" = 3\n", "x.conf:1: missing key", "a line without a key");
	expect_error("collectors = cpu magic\n", "unknown collector 'magic'", "unknown collector");
	expect_error("target = mars\n", "unknown target 'mars'", "unknown target");
	expect_error("point_timeout_s = nan\n", "is not a number", "NaN rejected");
	expect_error("target = vm\nvm_accel = hvf\n", "x.conf:2: vm_accel: unknown vm_accel 'hvf' (auto, kvm, tcg)",
		     "unknown accelerator");
	expect_error("vm_mem_mib = 16\n", "vm_mem_mib: 16 is outside [64,", "guest RAM too small");
	expect_error("vm_cpus = 0\n", "vm_cpus: 0 is outside [1, 64]", "no vCPUs");
	expect_error("kernel = \n", "x.conf:1:", "an empty kernel");
	expect_error("vm_kernels = stock ../../etc\n", "x.conf:1: vm_kernels: '../../etc' is not a kernel label",
		     "a vm part's kernel is a label, not a path");
	expect_error("vm_kernels = a b c d e\n", "at most 4 kernels", "at most four vm kernels");
	expect_error("vm_users = 1 0\n", "vm_users: 0 is outside [1, 30000]", "vm users range");
	expect_error("bench_repetitions = -1\n", "bench_repetitions: -1 is outside [0, 1000]", "bench repetitions");
	expect_error("bench_min_time_s = 0\n", "bench_min_time_s: 0 is outside", "bench minimum time");

	config_defaults(&c);
	rc = config_parse_text(&c, "vm.conf",
			       "target = vm\nkernel = legacy-anon-vma\nvm_mem_mib = 128\nvm_cpus = 2\n"
			       "vm_zram_mib = 0\nvm_accel = tcg\nvm_cmdline = quiet\nvm_timeout_s = 30\n",
			       err, sizeof(err));
	CHECK(rc == 0 && !strcmp(c.target, "vm") && !strcmp(c.kernel, "legacy-anon-vma") && c.vm_mem_mib == 128 &&
		      c.vm_zram_mib == 0 && !strcmp(c.vm_accel, "tcg") && !strcmp(c.vm_cmdline, "quiet") &&
		      c.vm_timeout_s == 30,
	      "the vm keys parse (%s)", err);
	config_free(&c);

	config_defaults(&c);
	rc = config_load(&c, "/nonexistent/dir/none.conf", err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "/nonexistent/dir/none.conf: cannot read: No such file"), "missing file: %s", err);
	config_free(&c);

	char path[] = "/tmp/rmapbench-test-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, "users = 1\n\0junk\n", 16) == 16, "binary config written");
	close(fd);
	config_defaults(&c);
	rc = config_load(&c, path, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "not a text file"), "a config with a NUL byte: %s", err);
	CHECK(!strcmp(c.workloads[0], "aim7"), "defaults survive a failed load");
	config_free(&c);
	unlink(path);

	config_defaults(&c);
	rc = config_load(&c, "configs/quick.conf", err, sizeof(err));
	CHECK(rc == 0 && !strcmp(c.name, "quick"), "configs/quick.conf parses, named after its file (%s)", err);
	config_free(&c);
	/* every shipped suite, so that a new one cannot ship broken */
	glob_t g;
	int grc = glob("configs/*.conf", 0, NULL, &g);
	CHECK(grc == 0 && g.gl_pathc >= 10, "the suites are found (%zu)", grc ? 0 : g.gl_pathc);
	for (size_t i = 0; !grc && i < g.gl_pathc; i++) {
		config_defaults(&c);
		err[0] = 0;
		rc = config_load(&c, g.gl_pathv[i], err, sizeof(err));
		CHECK(rc == 0, "%s parses (%s)", g.gl_pathv[i], err);
		config_free(&c);
	}
	if (!grc)
		globfree(&g);
	return tap_done();
}
