#!/usr/bin/env bash
# make test-kernels: what make test leaves out because it takes minutes.
#  1. legacy-anon-vma builds from linux-source-6.1 (about 9 minutes on two
#     cores the first time), and a second request reuses the cache;
#  2. a patch that does not apply is a one-line error naming it;
#  3. compare-kernels stock legacy-anon-vma over configs/compare-kernels.conf
#     (2, 4, 8 users) under memory
#     pressure: VMAs per rmap walk grow with users on legacy-anon-vma and
#     stay of order 1 on stock, in the database and in a figure.
set -u
source "$(dirname "$0")/lib.sh"

echo "== legacy-anon-vma: build (or the cached image)"
"$BIN" kernel build legacy-anon-vma >"$tmp/b1" || fail "the legacy-anon-vma build failed"
start=$(date +%s)
"$BIN" kernel build legacy-anon-vma >"$tmp/b2" 2>"$tmp/b2.err" || fail "the second request failed"
(($(date +%s) - start < 10)) || fail "the second request took $(($(date +%s) - start)) s: not cached"
grep -q "cached" "$tmp/b2.err" || fail "the second request did not say it reused the cache: $(cat "$tmp/b2.err")"
cmp -s "$tmp/b1" "$tmp/b2" || fail "the second request gave another image: $(cat "$tmp/b1" "$tmp/b2")"
echo "ok: built and cached: $(cat "$tmp/b2")"

echo "== a patch that does not apply"
mkdir -p "$tmp/kernels/patches" "$tmp/kernels/config"
cp "$top"/kernels/*.sh "$tmp/kernels/"
cp "$top"/kernels/config/* "$tmp/kernels/config/"
cat >"$tmp/kernels/patches/stale.patch" <<'PATCH'
--- a/mm/rmap.c
+++ b/mm/rmap.c
@@ -1,3 +1,3 @@
-this line is not in mm/rmap.c
+nor is this one
 and neither is this
PATCH
printf 'kind = build\nsource = linux-source-6.1\nfragments = config/base.config\npatches = patches/stale.patch\n' \
	>"$tmp/kernels/stale.kernel"
RMAPBENCH_KERNELS_DIR=$tmp/kernels RMAPBENCH_KERNEL_CACHE=$tmp/cache "$BIN" kernel build stale 2>"$tmp/e" &&
	fail "a stale patch built"
[[ $(grep -c "error:" "$tmp/e") == 1 ]] || fail "not one error line: $(cat "$tmp/e")"
grep -q "error: patch $tmp/kernels/patches/stale.patch does not apply to linux-source-6.1" "$tmp/e" ||
	fail "the stale patch is not named: $(cat "$tmp/e")"
ls "$tmp"/cache/.build-* >/dev/null 2>&1 && fail "the failed build left its unpacked source"
echo "ok: $(grep error: "$tmp/e")"

echo "== compare-kernels stock legacy-anon-vma"
db=$tmp/results/rmapbench.db
"$BIN" --db "$db" compare-kernels stock legacy-anon-vma >"$tmp/cmp" ||
	fail "compare-kernels failed: $(tail -20 "$tmp/cmp")"
cat "$tmp/cmp"
per() { sql "$db" "select value from results r join points p on p.id = r.point_id where r.run_id = $1 and p.users = $2 and r.metric = 'rmap_vmas_per_walk'"; }
for u in 2 4 8; do
	s=$(per 1 "$u") l=$(per 2 "$u")
	[[ -n $s && -n $l ]] || fail "rmap_vmas_per_walk missing at $u users (stock '$s', legacy '$l')"
	awk -v s="$s" 'BEGIN { exit !(s < 2) }' || fail "stock: $s VMAs per walk at $u users, expected of order 1"
	eval "legacy_$u=$l"
done
# Every user's COWed pages share the family's anon_vma: a walk visits about
# half of the users' VMAs before it finds the page (it stops there).
awk -v a="$legacy_2" -v b="$legacy_4" -v c="$legacy_8" 'BEGIN { exit !(a < b && b < c && c > 2 * a && c > 3) }' ||
	fail "legacy-anon-vma: $legacy_2, $legacy_4, $legacy_8 VMAs per walk at 2, 4, 8 users: no growth with users"
ls "$tmp"/results/compare-1-2/compare-rmap_vmas_per_walk.png >/dev/null || fail "no comparison figure"
[[ $(sql "$db" "select count(*) from results where run_id = 2 and metric = 'lockstat_anon_vma_contentions'") == 3 ]] ||
	fail "legacy-anon-vma has lock_stat: its anon_vma rwsem figures should be recorded"
echo "ok: VMAs per walk, stock vs legacy-anon-vma: 2 users $(per 1 2) vs $legacy_2, 4 users $(per 1 4) vs $legacy_4, 8 users $(per 1 8) vs $legacy_8"
echo "test-kernels: all passed"
