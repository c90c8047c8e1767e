/* The host side of the vm target without a guest: the results framing and
 * its parser against every way a stream can be wrong, the initramfs
 * writer against cpio(1), and kernel.info and image checks. */
#include "cpio.h"
#include "frame.h"
#include "git_range.h"
#include "kernel.h"
#include "recipe.h"
#include "sample.h"
#include "tap.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

struct collected {
	char payloads[16][FRAME_MAX_PAYLOAD + 1];
	int n;
};

static void collect(void *arg, const char *payload)
{
	struct collected *c = arg;
	if (c->n < 16)
		snprintf(c->payloads[c->n++], sizeof(c->payloads[0]), "%s", payload);
}

/* A stream of the given payloads, framed from seq 0, into buf. */
static size_t stream(char *buf, size_t len, const char *const *payloads, int n)
{
	size_t used = 0;
	for (int i = 0; i < n; i++)
		used += frame_encode(buf + used, len - used, (unsigned)i, payloads[i]);
	return used;
}

static int parse(const char *data, size_t n, struct collected *c, char *status, char *why)
{
	memset(c, 0, sizeof(*c));
	return frame_parse_stream(data, n, collect, c, status, 200, why, 300);
}

static void test_framing(void)
{
	char buf[8192], status[200], why[300];
	struct collected c;
	CHECK(frame_crc32("123456789", 9) == 0xcbf43926u, "crc32 of the check string is IEEE's 0xcbf43926");

	const char *good[] = { "begin rmapbench-agent 1 6.1.0", "metric sys_s 1.5 s", "unavailable rmap_walks no kprobes",
			       "end 4 ok" };
	size_t n = stream(buf, sizeof(buf), good, 4);
	CHECK(parse(buf, n, &c, status, why) == 0, "a whole stream parses (%s)", why);
	CHECK(c.n == 2 && !strcmp(c.payloads[0], "metric sys_s 1.5 s"), "the payloads between begin and end, in order");
	CHECK(!strcmp(status, "ok"), "the end status is passed on");

	/* What a tty with ONLCR and a console's noise do to it. */
	char noisy[9000];
	size_t m = 0;
	m += (size_t)snprintf(noisy, sizeof(noisy), "[    1.2] a kernel line\r\n");
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n')
			noisy[m++] = '\r';
		noisy[m++] = buf[i];
	}
	CHECK(parse(noisy, m, &c, status, why) == 0 && c.n == 2, "CR LF line ends and non-frame lines are ignored");

	const char *failed[] = { "begin x", "end 2 failed: the workload exited with status 3" };
	n = stream(buf, sizeof(buf), failed, 2);
	CHECK(parse(buf, n, &c, status, why) == 0 && !strcmp(status, "failed: the workload exited with status 3"),
	      "a failure reported by the agent is its status, not a parse error");

	n = stream(buf, sizeof(buf), good, 3);
	CHECK(parse(buf, n, &c, status, why) < 0 && strstr(why, "no end frame"), "a stream cut before end: %s", why);
	CHECK(c.n == 2, "the frames before the fault were still passed on");

	n = stream(buf, sizeof(buf), good, 4);
	char *crc = strstr(buf, "@RB1 1 ");
	crc[strlen("@RB1 1 18 ")] ^= 1; /* a flipped bit in the checksum */
	CHECK(parse(buf, n, &c, status, why) < 0 && strstr(why, "checksum"), "a corrupted checksum: %s", why);

	n = stream(buf, sizeof(buf), good, 4);
	char *pl = strstr(buf, "sys_s");
	pl[0] = 'S'; /* a flipped payload byte */
	CHECK(parse(buf, n, &c, status, why) < 0 && strstr(why, "frame 1: checksum"), "a corrupted payload: %s", why);

	/* A lost line: frame 1 missing. */
	n = stream(buf, sizeof(buf), good, 4);
	char *l1 = strstr(buf, "@RB1 1 "), *l2 = strstr(buf, "@RB1 2 ");
	memmove(l1, l2, n - (size_t)(l2 - buf));
	n -= (size_t)(l2 - l1);
	CHECK(parse(buf, n, &c, status, why) < 0 && strstr(why, "frame 2 arrived where 1 was due"), "a lost frame: %s",
	      why);

	const char *nobegin[] = { "metric a 1 x", "end 2 ok" };
	n = stream(buf, sizeof(buf), nobegin, 2);
	CHECK(parse(buf, n, &c, status, why) < 0 && strstr(why, "begin"), "a stream must open with begin: %s", why);

	const char *badcount[] = { "begin", "metric a 1 x", "end 7 ok" };
	n = stream(buf, sizeof(buf), badcount, 3);
	CHECK(parse(buf, n, &c, status, why) < 0 && strstr(why, "counts 7"), "an end that miscounts: %s", why);

	n = stream(buf, sizeof(buf), good, 4);
	CHECK(parse(buf, n - 1, &c, status, why) < 0, "the last frame without its newline is not accepted");
	CHECK(parse("", 0, &c, status, why) < 0 && strstr(why, "no frames"), "an empty file: %s", why);

	char length_lie[200];
	snprintf(length_lie, sizeof(length_lie), "@RB1 0 99 %08x begin\n", (unsigned)frame_crc32("begin", 5));
	CHECK(parse(length_lie, strlen(length_lie), &c, status, why) < 0 && strstr(why, "99 payload bytes"),
	      "a length that disagrees: %s", why);
	CHECK(parse("@RB1 zz\n", 8, &c, status, why) < 0 && strstr(why, "garbled"), "a garbled header: %s", why);

	/* a hostile guest: a payload far past the host's buffer, its length
	 * and checksum true; under ASan this overflowed the stack before */
	size_t hl = 5 * FRAME_MAX_PAYLOAD;
	char *huge = malloc(hl + 100), *hp = malloc(hl + 1);
	memset(hp, 'A', hl);
	hp[hl] = 0;
	int hn = snprintf(huge, hl + 100, "@RB1 0 %zu %08x %s\n", hl, (unsigned)frame_crc32(hp, hl), hp);
	CHECK(parse(huge, (size_t)hn, &c, status, why) < 0 && strstr(why, "at most"),
	      "a frame longer than FRAME_MAX_PAYLOAD with a valid checksum is refused: %s", why);
	free(huge);
	free(hp);

	char big[FRAME_MAX_PAYLOAD + 10];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	CHECK(frame_encode(buf, sizeof(buf), 0, big) == 0, "an oversized payload is refused, not cut");
	CHECK(frame_encode(buf, sizeof(buf), 0, "two\nlines") == 0, "a payload with a newline is refused");
}

static void test_cpio(void)
{
	char dir[] = "/tmp/rmapbench-cpio-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	char path[300], src[300], cmd[900];
	snprintf(path, sizeof(path), "%s/initrd.cpio", dir);
	snprintf(src, sizeof(src), "%s/src", dir);
	put(src, "hello from the host\n");
	struct cpio c;
	CHECK(cpio_open(&c, path) == 0, "cpio_open");
	cpio_dir(&c, "dev");
	cpio_chardev(&c, "dev/console", 5, 1);
	cpio_dir(&c, "bin");
	CHECK(cpio_file(&c, "bin/hello", 0755, src) == 0, "cpio_file copies a host file");
	CHECK(cpio_file(&c, "bin/none", 0755, "/nonexistent/file") < 0, "cpio_file on a missing file fails");
	/* a kernel cache's modules= list is outside bytes: no device, no
	 * FIFO, nothing larger than a module could be */
	errno = 0;
	CHECK(cpio_file(&c, "lib/modules/zero.ko", 0644, "/dev/zero") < 0 && errno == EINVAL,
	      "cpio_file refuses a device (errno %d)", errno);
	char big[300];
	snprintf(big, sizeof(big), "%s/big.ko", dir);
	int bf = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(bf >= 0 && ftruncate(bf, (off_t)CPIO_FILE_MAX + 1) == 0, "a sparse file past the cap");
	if (bf >= 0)
		close(bf);
	errno = 0;
	CHECK(cpio_file(&c, "lib/modules/big.ko", 0644, big) < 0 && errno == EFBIG, "cpio_file refuses past %zu MiB (errno %d)",
	      CPIO_FILE_MAX >> 20, errno);
	cpio_data(&c, "plan", 0644, "run aim7 users=1\n", 17);
	CHECK(cpio_close(&c) == 0, "cpio_close");
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir x && cd x && cpio -idm --quiet < ../initrd.cpio 2>&1 && cat bin/hello plan", dir);
	FILE *p = popen(cmd, "r");
	char out[400] = "";
	size_t n = p ? fread(out, 1, sizeof(out) - 1, p) : 0;
	out[n] = 0;
	if (p)
		pclose(p);
	CHECK(!strcmp(out, "hello from the host\nrun aim7 users=1\n"), "cpio(1) unpacks what we wrote");
	snprintf(cmd, sizeof(cmd), "cpio -itv --quiet < %s 2>&1", path);
	p = popen(cmd, "r");
	n = p ? fread(out, 1, sizeof(out) - 1, p) : 0;
	out[n] = 0;
	if (p)
		pclose(p);
	CHECK(strstr(out, "crw-------") && strstr(out, "5,") && strstr(out, "dev/console"),
	      "dev/console is the character device 5,1");
	CHECK(strstr(out, "-rwxr-xr-x") != NULL, "modes are kept");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "cleanup");
}

static void test_kernel_info(void)
{
	char dir[] = "/tmp/rmapbench-kinfo-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	struct kernel_info k;
	char err[600], path[300], text[900];
	CHECK(kernel_info_load(dir, &k, err, sizeof(err)) < 0 && strstr(err, "kernel.info"),
	      "a cache directory without kernel.info: %s", err);
	snprintf(path, sizeof(path), "%s/kernel.info", dir);
	snprintf(text, sizeof(text), "label=t\nrelease=6.1.0\nimage=%s/vmlinuz\nmodules=%s/a.ko %s/b.ko\n", dir, dir,
		 dir);
	put(path, text);
	CHECK(kernel_info_load(dir, &k, err, sizeof(err)) < 0 && strstr(err, "kernel image") && strstr(err, "missing"),
	      "kernel.info naming a missing image: %s", err);
	snprintf(path, sizeof(path), "%s/vmlinuz", dir);
	put(path, "not a kernel");
	CHECK(kernel_info_load(dir, &k, err, sizeof(err)) == 0 && k.nmodules == 2 && !strcmp(k.release, "6.1.0"),
	      "kernel.info read back: release, image and two modules");
	CHECK(kernel_prepare("/nonexistent/bzImage", &k, err, sizeof(err)) < 0 && strstr(err, "/nonexistent/bzImage"),
	      "a missing image path is named: %s", err);
	CHECK(kernel_prepare(path, &k, err, sizeof(err)) < 0 && strstr(err, "not an x86 bzImage"),
	      "a file that is not a bzImage is refused: %s", err);
	/* A bzImage header: "HdrS" at 0x202, the version string's offset
	 * (less 0x200) at 0x20e. */
	static unsigned char img[0x400];
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00;
	img[0x20f] = 0x01; /* 0x300 */
	memcpy(img + 0x300, "6.1.192-test (root@x) #1 SMP", 28);
	FILE *f = fopen(path, "wb");
	fwrite(img, 1, sizeof(img), f);
	fclose(f);
	CHECK(kernel_prepare(path, &k, err, sizeof(err)) == 0 && !strcmp(k.release, "6.1.192-test") &&
		      !strcmp(k.kind, "image"),
	      "an image path: the release read from its header (%s)", k.release);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "cleanup");
}

/* What a bisect walks, as git-range.sh prints it. */
static void test_git_range(void)
{
	static const char g[] = "0123456789abcdef0123456789abcdef01234567",
			  b[] = "89abcdef0123456789abcdef0123456789abcdef",
			  m[] = "fedcba9876543210fedcba9876543210fedcba98";
	char text[1024], err[300];
	struct git_range r;
	snprintf(text, sizeof(text), "good %s\nbad %s\ncommit %s 2026-12-06 mm: one\ncommit %s 2026-12-07 mm: two words\n",
		 g, b, m, b);
	CHECK(git_range_parse(text, &r, err, sizeof(err)) == 0 && r.n == 2 && !strcmp(r.good, g) &&
		      !strcmp(r.commits[1].hash, b) && !strcmp(r.commits[1].subject, "mm: two words") &&
		      !strcmp(r.commits[0].date, "2026-12-06"),
	      "two commits read, BAD last, subject and date kept");
	free(r.commits);
	snprintf(text, sizeof(text), "good %s\nbad %s\ncommit %s 2026-12-06 mm: one\n", g, b, m);
	CHECK(git_range_parse(text, &r, err, sizeof(err)) < 0 && strstr(err, "ending at bad"),
	      "a list that does not end at BAD is refused: %s", err);
	snprintf(text, sizeof(text), "good %s\nbad %s\ncommit %.39s 2026-12-06 short\n", g, b, b);
	CHECK(git_range_parse(text, &r, err, sizeof(err)) < 0 && strstr(err, "line 3"),
	      "a hash of 39 digits is refused, naming the line: %s", err);
	snprintf(text, sizeof(text), "good %s\nbad %s\nrm -rf %s\n", g, b, b);
	CHECK(git_range_parse(text, &r, err, sizeof(err)) < 0 && strstr(err, "line 3"),
	      "an unknown line is refused: %s", err);
}

/* Flavours: LABEL+debug and git:PATH@REV+debug; a package has none. */
static void test_flavour(void)
{
	const char *fl;
	CHECK(kernel_spec_base("minimal+debug", &fl) == 7 && !strcmp(fl, "debug"), "minimal+debug: minimal, debug");
	CHECK(kernel_spec_base("minimal", &fl) == 7 && !*fl, "minimal: no flavour");
	CHECK(kernel_spec_base("+debug", &fl) == 6 && !*fl, "+debug alone is no flavour of anything");
	CHECK(kernel_spec_ok("minimal+debug") && kernel_spec_ok("git:/src/linux@v6.1+debug") &&
		      kernel_spec_ok("git:/src/linux@HEAD~2"),
	      "a label and a git spec, with and without +debug");
	CHECK(!kernel_spec_ok("minimal+kasan") && !kernel_spec_ok("mini mal+debug") && !kernel_spec_ok("+debug") &&
		      !kernel_spec_ok("minimal+debug+debug"),
	      "an unknown flavour, a bad label, a flavour of nothing, two flavours: refused");
	struct kernel_recipe r;
	char err[600];
	CHECK(kernel_recipe_load("stock+debug", &r, err, sizeof(err)) < 0 && strstr(err, "no +debug") &&
		      strstr(err, "stock.kernel"),
	      "a package kernel takes no +debug, naming its recipe: %s", err);
	CHECK(kernel_recipe_load("minimal+debug", &r, err, sizeof(err)) == 0 && !strcmp(r.kind, "build"),
	      "minimal+debug reads minimal's recipe");
}

int main(void)
{
	test_flavour();
	test_framing();
	test_git_range();
	test_cpio();
	test_kernel_info();
	return tap_done();
}
