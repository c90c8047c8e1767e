/* klog: the kernel errors a point brought, from the kernel's own log
 * (/dev/kmsg, whatever the console's loglevel): the records written
 * between start and stop, the kernel's alone (a line userspace wrote
 * there is counted, never taken for the kernel's), cut into reports and
 * signatures by klog.c. On the host and, through the agent, in a guest.
 *
 * What it records: klog_samples (klog.h). */
#include "collector.h"
#include "klog.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct klog_priv {
	int fd;
	int err;
};

static void klog_start(struct coll_ctx *c)
{
	struct klog_priv *p = calloc(1, sizeof(*p));
	char buf[256];
	if (!p)
		abort();
	/* the records from here on: a read after SEEK_END returns the next */
	p->fd = open(rb_sys_path("/dev/kmsg", buf, sizeof(buf)), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	p->err = p->fd < 0 ? errno : 0;
	if (p->fd >= 0 && lseek(p->fd, 0, SEEK_END) < 0) {
		p->err = errno;
		close(p->fd);
		p->fd = -1;
	}
	c->priv = p;
}

/* A read's records ("PRI,SEQ,USEC,FLAGS;TEXT" lines, each followed by
 * " KEY=VALUE" lines): the kernel's text into k, others counted. */
static void records(struct klog *k, char *buf, unsigned long *user)
{
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *semi = strchr(line, ';');
		if (line[0] == ' ' || !semi)
			continue;
		if (strtoul(line, NULL, 10) >> 3) { /* its facility is not the kernel's */
			(*user)++;
			continue;
		}
		klog_feed(k, semi + 1, strlen(semi + 1));
		klog_feed(k, "\n", 1);
	}
}

/* Reads up to the end of the log: 0, or the errno that stopped it. */
static int read_log(int fd, struct klog *k, unsigned long *user, unsigned long *lost)
{
	static char buf[16384];
	for (unsigned long reads = 0; reads < 1000000; reads++) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EPIPE) { /* overwritten before it was read */
			(*lost)++;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : errno;
		if (n == 0)
			return 0;
		buf[n] = 0;
		records(k, buf, user);
	}
	return 0;
}

static void klog_stop(struct coll_ctx *c)
{
	struct klog_priv *p = c->priv;
	static struct klog k;
	unsigned long user = 0, lost = 0;
	klog_init(&k);
	int err = p->fd >= 0 ? read_log(p->fd, &k, &user, &lost) : p->err;
	klog_end(&k);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
	c->priv = NULL;
	if (err) {
		ss_unavailable(c->out, "kernel_error_reports", "/dev/kmsg: %s", strerror(err));
		return;
	}
	klog_samples(&k, c->out);
	if (user)
		ss_attr(c->out, "kernel_log_userspace_records", "%lu", user);
	if (lost)
		ss_attr(c->out, "kernel_log_lost", "%lu reads found records overwritten", lost);
}

const struct collector coll_klog = {
	.name = "klog",
	.summary = "kernel errors in the kernel's log (/dev/kmsg): reports and their signatures",
	.guest = true,
	.start = klog_start,
	.stop = klog_stop,
};
