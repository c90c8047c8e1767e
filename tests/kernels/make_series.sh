#!/usr/bin/env bash
# make_series.sh DIR: a quilt-style series for `bisect --series` on the
# minimal recipe: four patches, the 2nd of them 2.6.33's anon_vma rule
# (legacy-anon-vma.patch), the 3rd its lock rule, the others a note file
# under mm/ that nothing builds. The culprit is step 2.
set -euo pipefail
dir=${1:?usage: make_series.sh DIR}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
note() { # note N: a patch that adds mm/rmapbench-series-N.txt
	printf 'Subject: [PATCH] mm: a note, step %s of the test series\n\n' "$1"
	printf -- '--- /dev/null\n+++ b/mm/rmapbench-series-%s.txt\n@@ -0,0 +1 @@\n+rmapbench test series, step %s\n' "$1" "$1"
}
note 1 >"$dir/0001-note.patch"
{
	printf 'Subject: [PATCH] mm: one anon_vma a fork family, as 2.6.33\n\n'
	cat "$here/kernels/patches/legacy-anon-vma.patch"
} >"$dir/0002-legacy-anon-vma.patch"
{
	printf 'Subject: [PATCH] mm: walks hold the anon_vma lock alone, as 2.6.33\n\n'
	cat "$here/kernels/patches/legacy-anon-vma-lock.patch"
} >"$dir/0003-legacy-anon-vma-lock.patch"
note 4 >"$dir/0004-note.patch"
printf '# the test series\n0001-note.patch\n0002-legacy-anon-vma.patch -p1\n0003-legacy-anon-vma-lock.patch\n\n0004-note.patch\n' >"$dir/series"
