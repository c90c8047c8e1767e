#include "signals.h"

#include <string.h>
#include <unistd.h>

volatile sig_atomic_t rb_interrupted, rb_stop_now;

static void on_int(int sig)
{
	static const char msg[] = "\nrmapbench: interrupted: finishing the current point (Ctrl-C again stops it now)\n";
	if (sig == SIGINT && !rb_interrupted) {
		rb_interrupted = 1;
		if (write(2, msg, sizeof(msg) - 1) < 0) {
			/* nothing to do: stderr is gone */
		}
		return;
	}
	rb_interrupted = 1;
	rb_stop_now = 1;
}

void rb_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int; /* no SA_RESTART: blocking reads return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}
