/* The version-1 swap header (include/linux/swap.h, union swap_header),
 * written without mkswap: by the guest agent on zram, and by the harness
 * on the swap file of a run, whose label then proves whose it is. */
#ifndef RMAPBENCH_SWAPFILE_H
#define RMAPBENCH_SWAPFILE_H

#include <stddef.h>
#include <stdint.h>

/* Writes the header for a swap area of BYTES at the start of fd, with
 * LABEL (at most 15 bytes) as its volume name. */
int swap_header_write(int fd, uint64_t bytes, long page, const char *label);
/* 1 when fd starts with a swap header labelled LABEL, else 0. */
int swap_header_is(int fd, long page, const char *label);

#endif
