#include "swapfile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* bootbits[1024], then version, last_page, nr_badpages, sws_uuid[16],
 * sws_volume[16]; "SWAPSPACE2" ends the first page. */
#define OFF_VERSION 1024
#define OFF_LAST 1028
#define OFF_BAD 1032
#define OFF_VOLUME 1052
#define VOLUME_LEN 16

int swap_header_write(int fd, uint64_t bytes, long page, const char *label)
{
	unsigned char *h = calloc(1, (size_t)page);
	if (!h)
		return -1;
	uint32_t version = 1, last = (uint32_t)(bytes / (uint64_t)page - 1), bad = 0;
	memcpy(h + OFF_VERSION, &version, 4);
	memcpy(h + OFF_LAST, &last, 4);
	memcpy(h + OFF_BAD, &bad, 4);
	strncpy((char *)h + OFF_VOLUME, label ? label : "", VOLUME_LEN - 1);
	memcpy(h + page - 10, "SWAPSPACE2", 10);
	int r = pwrite(fd, h, (size_t)page, 0) == page && fsync(fd) == 0 ? 0 : -1;
	free(h);
	return r;
}

int swap_header_is(int fd, long page, const char *label)
{
	unsigned char *h = calloc(1, (size_t)page);
	if (!h)
		return 0;
	int ok = pread(fd, h, (size_t)page, 0) == page && !memcmp(h + page - 10, "SWAPSPACE2", 10) &&
		 !strncmp((char *)h + OFF_VOLUME, label, VOLUME_LEN - 1) && strlen(label) < VOLUME_LEN;
	free(h);
	return ok;
}
