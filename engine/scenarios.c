/* The four bugs of the 2.6.34-rc hunt (LWN, "The case of the overly
 * anonymous anon_vma"), each as the operation sequence that shows it.
 * Addresses are in pages. Sequences 2 to 4 are derived from the fixes'
 * commit messages; the checker confirms them. */
#include "scenarios.h"

#include <string.h>

const struct scenario scenarios[] = {
	{ "dangling-anon-vma", "ea90002b0fa",
	  "an existing page swapped in first by the child points at the child's anon_vma, freed at its exit",
	  "dangling_anon_vma", "avc-rc",
	  "mmap 1 16 1 rw\n"
	  "write 1 16          # A faults the page: mapping = A\n"
	  "fork 1 2            # B's chain: B, A\n"
	  "reclaim 1 16 1      # unmapped from both, kept in swap cache\n"
	  "swapin 2 16         # B faults it in first\n"
	  "swapin 1 16         # A faults it in: no change\n"
	  "exit 2              # anon_vma B freed\n"
	  "reclaim 1 16 1      # the next rmap walk: the oops\n" },
	{ "merge-reuse", "d0e9fe1758f",
	  "a neighbour's anon_vma reused whatever its chain; the merge then drops the chain to the parent's",
	  "rmap_unreachable", "avc-rc",
	  "mmap 1 100 4 rw     # R\n"
	  "write 1 100 4       # anon_vma A\n"
	  "fork 1 2            # the child's R: B, chain B, A\n"
	  "mprotect 2 100 4 r\n"
	  "mmap 2 96 4 rw      # R2 just below R, flags differ: no merge\n"
	  "write 2 96 4        # find_mergeable_anon_vma returns B: R2's chain is B only\n"
	  "mprotect 2 100 4 rw # vma_merge: R2 absorbs R, R's chain B, A dropped\n"
	  "exit 1              # A freed: the child's un-COWed pages point at it\n"
	  "read 2 100 4\n"
	  "reclaim 2 100 4\n" },
	{ "mprotect-wrong-chain", "287d97ac032",
	  "vma_adjust gives the importer the exporter's anon_vma without its chain",
	  "rmap_unreachable", "avc-rc",
	  "mmap 1 200 3 r\n"
	  "mprotect 1 201 2 rw # V [200,201) has no anon_vma, N [201,203)\n"
	  "write 1 201 2       # N gets anon_vma A\n"
	  "mprotect 1 201 1 r  # page 201 moves into V, which is not on A's list\n"
	  "munmap 1 202 1      # A's list is empty: A freed\n"
	  "read 1 201\n"
	  "reclaim 1 201 1\n" },
	{ "chain-order", "646d87b481d",
	  "anon_vma_clone reverses the chain: its last entry is no longer the oldest anon_vma",
	  "chain_order", "avc-rc",
	  "mmap 1 300 1 rw\n"
	  "write 1 300         # P1: A\n"
	  "fork 1 2            # P2: B, A\n"
	  "fork 2 3            # P3: C, A, B when the copy reverses\n"
	  "reclaim 1 300 1\n"
	  "swapin 3 300        # P3 faults it in first\n"
	  "swapin 1 300\n"
	  "exit 3\n"
	  "exit 2\n"
	  "read 1 300\n"
	  "reclaim 1 300 1\n" },
	{ 0 },
};

const struct scenario *scenario_find(const char *name)
{
	for (int i = 0; scenarios[i].name; i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	return 0;
}
