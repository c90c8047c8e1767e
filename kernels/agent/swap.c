/* Swap on zram, without mkswap or swapon(8): size the device, write the
 * version-1 swap header, swapon(2). Memory pressure in the guest comes
 * from its RAM size; this is where the pages it reclaims go. */
#include "agent.h"
#include "swapfile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

static char swap_why[200] = "swap was not asked for";
static long swap_mib;

static int write_header(const char *dev, uint64_t bytes, long page)
{
	int fd = open(dev, O_WRONLY | O_CLOEXEC);
	int r = fd < 0 ? -1 : swap_header_write(fd, bytes, page, "rmapbench-zram");
	if (fd >= 0)
		close(fd);
	return r;
}

void swap_on_zram(long mib)
{
	char size[32];
	snprintf(size, sizeof(size), "%ldM", mib);
	if (access("/sys/block/zram0/disksize", W_OK) < 0) {
		snprintf(swap_why, sizeof(swap_why), "no zram device (/sys/block/zram0): %s", strerror(errno));
		return;
	}
	if (rb_write_file("/sys/block/zram0/disksize", size) < 0) {
		snprintf(swap_why, sizeof(swap_why), "zram0 disksize %s: %s", size, strerror(errno));
		return;
	}
	if (write_header("/dev/zram0", (uint64_t)mib << 20, sysconf(_SC_PAGESIZE)) < 0) {
		snprintf(swap_why, sizeof(swap_why), "writing a swap header on /dev/zram0: %s", strerror(errno));
		return;
	}
	if (swapon("/dev/zram0", 0) < 0) {
		snprintf(swap_why, sizeof(swap_why), "swapon /dev/zram0: %s", strerror(errno));
		return;
	}
	swap_mib = mib;
	swap_why[0] = 0;
}

void swap_report(struct sample_set *ss)
{
	if (swap_mib)
		ss_attr(ss, "swap", "zram0 %ld MiB", swap_mib);
	else
		ss_attr(ss, "swap", "none: %s", swap_why);
}
