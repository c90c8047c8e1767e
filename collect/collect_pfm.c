/* pfm: counters by event name through libpfm4, attached to the workload's
 * main process before it execs (enable_on_exec) and inherited by every
 * process it forks; children's counts fold into ours as they exit.
 * Hardware events fail where there is no PMU (as in most VMs): they are
 * recorded as unavailable with the reason, the software ones still count. */
#include "collector.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct pfm_priv {
	int fd[16];
};

static int pfm_state; /* 0 untried, 1 ready, -1 failed */
static int pfm_init_err;



static void pfm_metric_name(const char *event, char *buf, size_t len)
{
	const char *colon = strrchr(event, ':'); /* "perf::PAGE-FAULTS" */
	const char *e = colon ? colon + 1 : event;
	size_t i = (size_t)snprintf(buf, len, "pfm_");
	for (; *e && i + 1 < len; e++)
		buf[i++] = isalnum((unsigned char)*e) ? (char)tolower((unsigned char)*e) : '_';
	buf[i] = 0;
}

static void pfm_start(struct coll_ctx *c)
{
	struct pfm_priv *p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	c->priv = p;
	if (!pfm_state) {
		pfm_init_err = pfm_initialize(); /* slow under QEMU: once per process */
		pfm_state = pfm_init_err == PFM_SUCCESS ? 1 : -1;
	}
	for (int i = 0; i < c->n_pfm_events; i++) {
		const char *ev = c->pfm_events[i];
		char name[80];
		p->fd[i] = -1;
		pfm_metric_name(ev, name, sizeof(name));
		if (pfm_state < 0) {
			ss_unavailable(c->out, name, "libpfm4 did not initialise: %s", pfm_strerror(pfm_init_err));
			continue;
		}
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;
		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		arg.attr = &attr;
		arg.size = sizeof(arg);
		int ret = pfm_get_os_event_encoding(ev, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
		if (ret != PFM_SUCCESS) {
			ss_unavailable(c->out, name, "libpfm4 cannot encode '%s': %s", ev, pfm_strerror(ret));
			continue;
		}
		attr.size = sizeof(attr);
		attr.disabled = 1;
		attr.enable_on_exec = 1;
		attr.inherit = 1;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		long fd = syscall(SYS_perf_event_open, &attr, c->pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int e = errno;
			ss_unavailable(c->out, name, "perf_event_open(%s): %s%s", ev, strerror(e),
				       e == ENOENT || e == EOPNOTSUPP || e == ENODEV
					       ? " (no hardware PMU for this event on this machine)"
					       : "");
			continue;
		}
		p->fd[i] = (int)fd;
	}
}

static void pfm_stop(struct coll_ctx *c)
{
	struct pfm_priv *p = c->priv;
	for (int i = 0; i < c->n_pfm_events; i++) {
		if (p->fd[i] < 0)
			continue;
		char name[80];
		uint64_t v[3];
		pfm_metric_name(c->pfm_events[i], name, sizeof(name));
		if (read(p->fd[i], v, sizeof(v)) != sizeof(v)) {
			ss_unavailable(c->out, name, "reading the counter failed: %s", strerror(errno));
		} else if (!v[2]) {
			ss_unavailable(c->out, name, "the counter never ran (multiplexed out or never enabled)");
		} else {
			/* scale for multiplexing: count x enabled / running */
			double val = (double)v[0] * ((double)v[1] / (double)v[2]);
			const char *unit = strstr(name, "clock") ? "ns" : "events";
			ss_add(c->out, name, val, unit);
		}
		close(p->fd[i]);
	}
	free(p);
	c->priv = NULL;
}

const struct collector coll_pfm = {
	.name = "pfm",
	.summary = "libpfm4 counters by name (pfm_events)",
	.start = pfm_start,
	.stop = pfm_stop,
};
