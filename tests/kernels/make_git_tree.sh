#!/usr/bin/env bash
# make_git_tree.sh DIR [CULPRIT [BROKEN]]: a git history over Debian's
# linux-source-6.1 for the git-kernel tests and bisect: the base commit is
# the Debian source as it is, then five commits that each touch mm/; the
# CULPRIT-th (1 to 5, default 3) applies 2.6.33's two anon_vma rules
# (legacy-anon-vma.patch and legacy-anon-vma-lock.patch), the others only
# change a comment, but for the BROKEN-th (1 to 4, none by default),
# which does not compile (an #error in mm/mprotect.c that the next commit
# takes out). Prints DIR's base commit.
set -euo pipefail
dir=${1:?usage: make_git_tree.sh DIR [CULPRIT]}
culprit=${2:-3}
broken=${3:-0}
[[ $culprit =~ ^[1-5]$ ]] || { echo "make_git_tree: CULPRIT is 1 to 5, not '$culprit'" >&2; exit 2; }
[[ $broken =~ ^[0-4]$ && $broken != "$culprit" && $((broken + 1)) != "$culprit" ]] ||
	{ echo "make_git_tree: BROKEN is 1 to 4, neither CULPRIT nor the one before it, not '$broken'" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
source "$here/kernels/lib.sh"
tarball=${RMAPBENCH_KERNEL_SRC_DIR:-/usr/src}/linux-source-6.1.tar.xz
[[ -f $tarball ]] || { echo "make_git_tree: $tarball is missing (scripts/deps.sh --kernels)" >&2; exit 2; }
[[ ! -e $dir ]] || { echo "make_git_tree: $dir exists" >&2; exit 2; }
mkdir -p "$dir"
source_tree "$dir" "$tarball"
cd "$dir"
gitc init -q
gitc add -A
gitc commit -q -m "base: Debian linux-source-6.1 $(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)"
base=$(git rev-parse HEAD)
note() { # a harmless commit: a comment at the end of FILE
	echo "/* rmapbench test tree: $2 */" >>"$1"
	gitc commit -q -am "$2"
}
files=(mm/rmap.c mm/mmap.c mm/memory.c mm/rmap.c mm/mprotect.c)
for i in 1 2 3 4 5; do
	if ((i == broken)); then
		echo '#error "rmapbench test tree: this commit does not compile"' >>mm/mprotect.c
		gitc commit -q -am "mm: step $i, which does not compile"
	elif ((broken && i == broken + 1)); then
		sed -i '/rmapbench test tree: this commit does not compile/d' mm/mprotect.c
		gitc commit -q -am "mm: step $i, mm/mprotect.c compiles again"
	elif ((i == culprit)); then
		patch -p1 --batch --quiet --no-backup-if-mismatch <"$here/kernels/patches/legacy-anon-vma.patch"
		patch -p1 --batch --quiet --no-backup-if-mismatch <"$here/kernels/patches/legacy-anon-vma-lock.patch"
		gitc commit -q -am "mm: 2.6.33's anon_vma rules (one anon_vma a fork family, walks exclusive)"
	else
		note "${files[i - 1]}" "mm: step $i, a comment in ${files[i - 1]}"
	fi
done
echo "$base"
