/* rmapbench-bench: every microbenchmark; the usual --benchmark_* flags.
 * ./run.sh bench runs it and stores its aggregates in the database. */
#include "bench.h"
#include "rev.h"

#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

void register_engine_benchmarks(void);
void register_host_benchmarks(void);

/* Google Benchmark 1.7.1 writes no library_version into its context (later
 * releases do): read it from the loaded library's real file name. */
static int find_version(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	char real[PATH_MAX];
	if (!strstr(info->dlpi_name, "libbenchmark.so") || !realpath(info->dlpi_name, real))
		return 0;
	const char *v = strstr(real, ".so.");
	snprintf(data, 64, "%s", v ? v + 4 : "unknown");
	return 1;
}

int main(int argc, char **argv)
{
	char version[64] = "";
	dl_iterate_phdr(find_version, version);
	if (version[0])
		bench_add_context("library_version", version);
	struct utsname u;
	uname(&u);
	bench_add_context("kernel", u.release);
	bench_add_context("rmapbench_revision", RMAPBENCH_REV);
	register_engine_benchmarks();
	register_host_benchmarks();
	return bench_main(argc, argv);
}
