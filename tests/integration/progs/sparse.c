#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
/* sparse GIB MS: a MAP_NORESERVE mapping of GIB GiB with two pages
 * touched, then MS milliseconds of computing (so that every sample of
 * the recorder reads it) */
int main(int argc, char **argv)
{
	unsigned long gib = argc > 1 ? strtoul(argv[1], NULL, 10) : 128;
	long ms = argc > 2 ? strtol(argv[2], NULL, 10) : 500;
	char *p = mmap(NULL, gib << 30, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	p[0] = 1;
	p[(gib << 30) / 2] = 1;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000L + (b.tv_nsec - a.tv_nsec) / 1000000L < ms);
	return 0;
}
