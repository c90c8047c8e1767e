/* The guest agent's parts: results frames, kprobe counting, zram swap. */
#ifndef RMAPBENCH_AGENT_H
#define RMAPBENCH_AGENT_H

#include "sample.h"

void agent_send(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void agent_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* kind "walk": each hit is one rmap walk; "vma": each hit is one VMA an
 * rmap walk visited (the walk's rmap_one callback). */
void kprobe_add(const char *kind, const char *func);
void kprobe_snapshot(int after);
void kprobe_report(struct sample_set *ss);

void swap_on_zram(long mib);
void swap_report(struct sample_set *ss);

#endif
