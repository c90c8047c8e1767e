/* The recorder's own parts, without a tracee: the page table it keeps
 * (ptab.c, open addressing with backward-shift deletion) against a plain
 * array, the maps parser on the lines /proc writes, and one sync of this
 * very process (mm_sync against /proc/self) written as trace lines. */
#include "emit.h"
#include "maps.h"
#include "mmstate.h"
#include "ptab.h"
#include "tap.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

static void test_ptab(void)
{
	enum { N = 20000 };
	static uint64_t want[N]; /* 0: absent */
	struct ptab t = { 0 };
	unsigned s = 7;
	int bad = 0;
	for (int round = 0; round < 200000; round++) {
		s = s * 1103515245u + 12345u;
		unsigned k = (s >> 8) % N;
		if ((s >> 4) % 3) {
			ptab_set(&t, k + 1, round + 1);
			want[k] = (uint64_t)round + 1;
		} else {
			ptab_del(&t, k + 1);
			want[k] = 0;
		}
	}
	size_t n = 0;
	for (unsigned k = 0; k < N; k++) {
		uint64_t *p = ptab_find(&t, k + 1);
		n += want[k] != 0;
		bad += want[k] ? !p || *p != want[k] : p != NULL;
	}
	CHECK(!bad && t.n == n, "200,000 sets and deletes: the table agrees with an array (%d wrong, %zu of %zu)", bad,
	      t.n, n);
	struct ptab c;
	bad = ptab_copy(&c, &t) != 0 || c.n != t.n;
	for (unsigned k = 0; k < N && !bad; k++) {
		uint64_t *p = ptab_find(&c, k + 1);
		bad = want[k] ? !p || *p != want[k] : p != NULL;
	}
	CHECK(!bad, "a fork's copy holds the same");
	ptab_free(&c);
	ptab_free(&t);
}

static void test_maps(void)
{
	static const struct {
		const char *line;
		int rc;
		unsigned long start, end;
		int prot;
	} cases[] = {
		{ "55d4c8a1b000-55d4c8a3c000 rw-p 00000000 00:00 0                          [heap]", 1, 0x55d4c8a1b, 0x55d4c8a3c, 3 },
		{ "7ffd1c2e0000-7ffd1c301000 rw-p 00000000 00:00 0                          [stack]", 1, 0x7ffd1c2e0, 0x7ffd1c301, 3 },
		{ "7f3a2c000000-7f3a2c021000 ---p 00000000 00:00 0 ", 1, 0x7f3a2c000, 0x7f3a2c021, 0 },
		{ "7f3a2c000000-7f3a2c021000 rw-s 00000000 00:01 1234                       /dev/zero (deleted)", 0, 0, 0, 0 },
		{ "7f3a2e400000-7f3a2e428000 r--p 00000000 fe:01 1835211                    /usr/lib/libc.so.6", 0, 0, 0, 0 },
		{ "7ffd1c3f6000-7ffd1c3fa000 r--p 00000000 00:00 0                          [vvar]", 0, 0, 0, 0 },
		{ "7f3a2c000000-7f3a2c021000 rw-p 00000000 00:00 0   [anon:glibc]", 1, 0x7f3a2c000, 0x7f3a2c021, 3 },
		{ "7f3a2c021000-7f3a2c000000 rw-p 00000000 00:00 0", -1, 0, 0, 0 },
		{ "zz-7f3a2c021000 rw-p 00000000 00:00 0", -1, 0, 0, 0 },
		{ "1000-2000 rwzp 0 00:00 0", -1, 0, 0, 0 },
		{ "1000-2000 rw-p", -1, 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct anon_map m = { 0 };
		int rc = maps_parse_line(cases[i].line, strlen(cases[i].line), 12, &m);
		CHECK(rc == cases[i].rc && (rc != 1 || (m.start == cases[i].start && m.end == cases[i].end &&
							 m.prot == cases[i].prot)),
		      "maps line %zu: %d (%lx-%lx prot %d)", i, rc, m.start, m.end, m.prot);
	}
}

/* This process, synced twice: a fresh mapping with two pages written is
 * "mmap" and "write ... 2"; munmapped, "munmap". */
static void test_sync_self(void)
{
	char path[] = "/tmp/rmapbench-test-record-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	struct emit o;
	char err[200];
	int dirfd = open("/tmp", O_RDONLY | O_DIRECTORY);
	int rc = emit_open(&o, dirfd, path + 5, 1, err, sizeof(err));
	close(dirfd);
	CHECK(rc == 0, "emit_open %s (%s)", path, err);
	if (rc)
		return;
	struct sync_env env = { .out = &o, .page_shift = 12, .max_pages = 1UL << 26 };
	struct mmstate s = { .num = 1 };
	mm_sync(&env, &s, getpid(), true);
	size_t len = 16 * 4096;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p[0] = 1;
	p[4096] = 1;
	char want[160];
	unsigned long page = (unsigned long)p >> 12;
	o.lines = 0;
	emit_line(&o, "# mark");
	mm_sync(&env, &s, getpid(), true);
	munmap(p, len);
	emit_line(&o, "# mark");
	mm_sync(&env, &s, getpid(), true);
	mm_clear(&s);
	emit_close(&o);
	size_t n;
	FILE *f = fopen(path, "r");
	char buf[1 << 16];
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = 0;
	if (f)
		fclose(f);
	unlink(path);
	char *mark = strstr(buf, "# mark\n");
	/* the mapping may merge with a neighbour of the same kind: its start
	 * is then below p, and what is written is p's two pages */
	snprintf(want, sizeof(want), "write 1 %lu 2\n", page);
	CHECK(mark && strstr(mark, "mmap 1 ") && strstr(mark, want), "a new mapping with two pages written: mmap, "
	      "write 1 %lu 2", page);
	snprintf(want, sizeof(want), "munmap 1 %lu 16\n", page);
	char *second = mark ? strstr(mark + 1, "# mark\n") : NULL;
	CHECK(second && strstr(second, want), "its munmap: munmap 1 %lu 16", page);
}

int main(void)
{
	test_ptab();
	test_maps();
	if (geteuid() == 0) /* frame numbers: root's, as the recorder's */
		test_sync_self();
	return tap_done();
}
