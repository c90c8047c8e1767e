/* The CLI's usage, for main.c (usage.c). */
#ifndef RMAPBENCH_USAGE_H
#define RMAPBENCH_USAGE_H

#include <stdio.h>

void usage(FILE *f);

#endif
