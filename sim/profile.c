/* Where every virtual nanosecond of a point went (sim_profile=1): each
 * task's time on the stack of the modelled kernel functions its
 * operation was in, with a leaf for what it was doing there. The leaves
 * are the kernel's own names for them in 2.6.33 and 6.1:
 *
 *   (none)                       the operation's own CPU time
 *   [user]                       user CPU time (compute jobs)
 *   page_referenced_one, try_to_unmap_one   an rmap walk under its anon_vma lock
 *   anon_vma_fork, unlink_anon_vmas, anon_vma_prepare   fork, exit and map under it
 *   _spin_lock                   spinning for the anon_vma lock (legacy, avc-rc, avc)
 *   rwsem_down_{read,write}_slowpath   sleeping for it (modern's rwsem)
 *   io_schedule                  waiting on the swap device or congestion
 *
 * So `paper --set profile=1` can say how much of legacy's system time
 * went to the spin and the walk, and how much of avc's time to the disk.
 * At most SIM_PROF_STACKS stacks: the operations are a short list. */
#include "machine.h"

#include <stdio.h>
#include <string.h>

void sim_prof_op(struct machine *m, const char *op, const char *hold)
{
	if (!m->mp.profile)
		return;
	snprintf(m->prof_op, sizeof(m->prof_op), "%s", op);
	m->prof_hold = hold;
}

void sim_prof_add(struct machine *m, const char *leaf, double ns)
{
	if (!m->mp.profile || !(ns > 0))
		return;
	char stack[sizeof(m->prof[0].stack)];
	if (leaf && !strcmp(leaf, "[user]"))
		snprintf(stack, sizeof(stack), "[user]");
	else
		snprintf(stack, sizeof(stack), "%s%s%s", m->prof_op[0] ? m->prof_op : "[kernel]", leaf ? ";" : "",
			 leaf ? leaf : "");
	int i = 0;
	while (i < m->nprof && strcmp(m->prof[i].stack, stack))
		i++;
	if (i == m->nprof) {
		if (m->nprof == SIM_PROF_STACKS)
			i = SIM_PROF_STACKS - 1; /* past the list: the last one counts the rest */
		else
			snprintf(m->prof[m->nprof++].stack, sizeof(m->prof[0].stack), "%s", stack);
	}
	m->prof[i].ns += ns;
}

void sim_prof_report(const struct machine *m)
{
	for (int i = 0; i < m->nprof; i++)
		printf("info sim_profile_%d %.0f %s\n", i, m->prof[i].ns, m->prof[i].stack);
}
