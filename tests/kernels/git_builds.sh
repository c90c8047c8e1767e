#!/usr/bin/env bash
# make test-kernels, the git half: kernels from commits of a git tree.
#  1. a test tree over linux-source-6.1 (tests/kernels/make_git_tree.sh;
#     RMAPBENCH_GIT_TREE reuses one) builds at its base;
#  2. a commit of this run's own over the base, a change to mm/rmap.c
#     alone, builds incrementally in the same build tree (its tree is in
#     no cache); the same commit again builds nothing;
#  3. compare-kernels between the base and the commit with 2.6.33's rules
#     names both commits, and the culprit walks more than twice the VMAs.
# The build times go to stdout for the record (docs/results/); nothing
# here asserts a duration.
set -u
source "$(dirname "$0")/lib.sh"

tree=${RMAPBENCH_GIT_TREE:-$tmp/tree}
if [[ ! -d $tree/.git ]]; then
	echo "== a git tree over linux-source-6.1 in $tree"
	"$top/tests/kernels/make_git_tree.sh" "$tree" 3 >/dev/null || fail "could not make the test tree"
fi
base=$(git -C "$tree" rev-list --max-parents=0 HEAD)
culprit=$(git -C "$tree" log --format=%H --grep="2.6.33's anon_vma rules" -n 1)
[[ -n $culprit ]] || fail "$tree is not a tree make_git_tree.sh made"
# A commit over the base that no run before made: a comment in mm/rmap.c
# unique to this run, so that its tree is in no cache (images are cached
# by tree) and it builds incrementally. Made detached; the branch stays.
branch=$(git -C "$tree" symbolic-ref -q --short HEAD) || fail "$tree is not on a branch"
git -C "$tree" checkout -q --detach "$base" || fail "checkout of the base"
echo "/* rmapbench git_builds.sh, run $(date +%s%N) */" >>"$tree/mm/rmap.c"
git -C "$tree" -c user.name=rmapbench -c user.email=rmapbench@localhost commit -q -am "mm: a comment in mm/rmap.c, this run's own" ||
	fail "commit of this run's change"
step1=$(git -C "$tree" rev-parse HEAD)
git -C "$tree" checkout -q "$branch" || fail "back to $branch"

build() { # build SPEC NAME: seconds into NAME.s, stdout into NAME
	local s=$(date +%s.%N)
	"$BIN" kernel build "$1" >"$tmp/$2" 2>"$tmp/$2.err" || fail "kernel build $1: $(tail -n 3 "$tmp/$2.err")"
	echo "$(date +%s.%N) - $s" | bc >"$tmp/$2.s"
}
echo "== the base, ${base:0:12}"
build "git:$tree@$base" b0
echo "== this run's commit, mm/rmap.c changed: ${step1:0:12}"
build "git:$tree@$step1" b1
grep -q "cached" "$tmp/b1.err" && fail "this run's commit was taken from the cache: $(cat "$tmp/b1.err")"
echo "== the same commit again"
build "git:$tree@$step1" b2
grep -q "cached" "$tmp/b2.err" || fail "the same commit built again: $(cat "$tmp/b2.err")"
cmp -s "$tmp/b1" "$tmp/b2" || fail "the same commit gave another image"
grep -q "^${step1:0:12} mm: a comment in mm/rmap.c" "$tmp/b1" || fail "the kernel's label does not name the commit: $(cat "$tmp/b1")"
printf 'git build times: base %.0f s (%s), mm/rmap.c changed %.0f s, unchanged %.1f s\n' \
	"$(cat "$tmp/b0.s")" "$(grep -q cached "$tmp/b0.err" && echo cached || echo built)" \
	"$(cat "$tmp/b1.s")" "$(cat "$tmp/b2.s")"

echo "== compare-kernels base against the commit with 2.6.33's rules"
db=$tmp/results/rmapbench.db
"$BIN" --db "$db" compare-kernels "git:$tree@$base" "git:$tree@$culprit" \
	--config "$top/configs/compare-kernels.conf" >"$tmp/cmp" 2>"$tmp/cmp.err" ||
	[[ $? == 1 ]] || fail "compare-kernels failed: $(tail -n 5 "$tmp/cmp.err")"
grep -q "A = ${base:0:12} base: Debian" "$tmp/cmp" || fail "compare-kernels does not name A's commit: $(grep 'A = ' "$tmp/cmp")"
grep -q "B = ${culprit:0:12} mm: 2.6.33" "$tmp/cmp" || fail "compare-kernels does not name B's commit: $(grep 'B = ' "$tmp/cmp")"
[[ $(sql "$db" "select kernel_label from runs order by id limit 1") == "${base:0:12} base: Debian"* ]] ||
	fail "the run does not record the commit as its kernel_label"
# compare-kernels.conf runs one repetition a point: too few to test, so
# the walks are read from the database: the culprit's grow with users
per() { sql "$db" "select value from results r join points p on p.id = r.point_id where r.run_id = $1 and p.users = 8 and r.metric = 'rmap_vmas_per_walk'"; }
a=$(per 1) b=$(per 2)
[[ -n $a && -n $b ]] || fail "no rmap_vmas_per_walk at 8 users (base '$a', culprit '$b')"
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > 2 * a) }' ||
	fail "VMAs per walk at 8 users: base $a, culprit $b: the culprit's walks did not grow"
grep -E "A = |B = |rmap_vmas_per_walk" "$tmp/cmp"
echo "ok: git kernels build incrementally, cache by tree, and compare by commit"
