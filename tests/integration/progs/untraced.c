#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
/* untraced MARKER: a child made with CLONE_UNTRACED writes a page, sleeps
 * a second, then leaves MARKER with its pid; the parent exits at once. */
int main(int argc, char **argv)
{
	long pid = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		char *p = malloc(1 << 20);
		memset(p, 1, 1 << 20);
		sleep(1);
		FILE *f = fopen(argv[1], "w");
		if (f) { fprintf(f, "%d\n", getpid()); fclose(f); }
		_exit(0);
	}
	return pid < 0;
}
