/* A minimal TAP producer: tests/run-all.sh counts the "ok"/"not ok" lines. */
#ifndef RMAPBENCH_TAP_H
#define RMAPBENCH_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 5, 6))) static void tap_check(int ok, const char *file, int line, const char *expr,
							     const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok) {
		printf("  # %s:%d: %s", file, line, expr);
		tap_failed++;
	}
	putchar('\n');
	fflush(stdout);
}

#define CHECK(cond, ...) tap_check(!!(cond), __FILE__, __LINE__, #cond, __VA_ARGS__)

static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
