/* The checks the anon_vma_chain designs share (check.c runs them). */
#ifndef ENGINE_AVC_CHECK_H
#define ENGINE_AVC_CHECK_H

#include "engine.h"

/* Chains agree in both directions and link no freed anon_vma; vmas that
 * share an anon_vma have identical chains; with `oldest_last`, the last
 * entry of every chain is its oldest anon_vma (2.6.34 relies on it). */
void avc_check(struct engine *e, bool oldest_last);
bool avc_list_reaches(struct anon_vma *av, struct vm_area_struct *vma, unsigned long index);

#endif
