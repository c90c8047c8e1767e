#!/usr/bin/env bash
# Stale swap cleanup touches only what it can prove a run made: a planted
# symlink named like a stale swap file (to an unrelated, active swap area)
# and an unlabelled file are left alone; a labelled file of a dead run is
# switched off and removed; the run's own swap goes on and off as before.
. "$(dirname "$0")/../lib.sh"
[[ $(id -u) == 0 ]] || skip "needs root for swapon"
command -v mkswap >/dev/null || skip "no mkswap"
dir=$tmp/results
mkdir -p "$dir"
victim=$tmp/victim.swap
dd if=/dev/zero of="$victim" bs=1M count=8 status=none && chmod 600 "$victim" && mkswap "$victim" >/dev/null ||
	fail "making the victim swap file"
swapon "$victim" 2>/dev/null || skip "swapon is not permitted here"
trap 'swapoff "$victim" 2>/dev/null; cleanup' EXIT
ln -s "$victim" "$dir/.rmapbench-swap-999999"
printf 'not a swap file\n' >"$dir/.rmapbench-swap-999998"
printf 'workloads = reclaim\nusers = 2\njobs_per_user = 2\nshared_mib = 8\nmem_limit_mib = 64\nswap_mib = 16\nseed = %s\n' \
	"$marker" >"$tmp/s.conf"
"$BIN" --db "$dir/rmapbench.db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err" || fail "the run failed: $(cat "$tmp/err")"
grep -qF "$victim" /proc/swaps || fail "the run switched off an unrelated swap area through a planted link"
[[ -L $dir/.rmapbench-swap-999999 ]] || fail "the planted link was removed"
[[ -f $dir/.rmapbench-swap-999998 ]] || fail "an unlabelled file was removed"
grep -q "not provably ours" "$tmp/err" || fail "no warning about what was left alone: $(cat "$tmp/err")"
grep -q rmapbench-swap /proc/swaps && fail "the run's own swap was left on: $(cat /proc/swaps)"

# A run killed while it fills its swap file (here by RLIMIT_FSIZE's
# SIGXFSZ past 8 MiB of a 256 MiB file) leaves a file whose header already
# says whose it is: the next run undoes it. (The header was written last,
# and such a file was "not provably ours" forever.)
kdir=$tmp/killed
mkdir -p "$kdir"
sed 's/swap_mib = 16/swap_mib = 256/' "$tmp/s.conf" >"$tmp/k.conf"
(ulimit -f 8192; exec "$BIN" --db "$kdir/rmapbench.db" run "$tmp/k.conf") >"$tmp/out" 2>&1 &&
	fail "a run past its file size limit went on"
ls "$kdir"/.rmapbench-swap-* >/dev/null 2>&1 || fail "no partial swap file was left to reap: $(ls -a "$kdir")"
"$BIN" --db "$kdir/rmapbench.db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err" || fail "the next run failed: $(cat "$tmp/err")"
grep -q "undoing swap file $kdir/.rmapbench-swap-[0-9]* left by a killed run" "$tmp/err" ||
	fail "the killed run's swap file was not undone: $(cat "$tmp/err")"
ls "$kdir"/.rmapbench-swap-* >/dev/null 2>&1 && fail "a swap file is left: $(ls -a "$kdir")"

# A full disk says so (a short write once left errno as the open's EEXIST)
if mkdir -p "$tmp/small" && mount -t tmpfs -o size=4m tmpfs "$tmp/small" 2>/dev/null; then
	trap 'umount "$tmp/small" 2>/dev/null; swapoff "$victim" 2>/dev/null; cleanup' EXIT
	"$BIN" --db "$tmp/small/rmapbench.db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err" && fail "a swap file on a full disk"
	grep -q "writing: No space left on device" "$tmp/err" || fail "a full disk: $(cat "$tmp/err")"
	ls "$tmp/small"/.rmapbench-swap-* >/dev/null 2>&1 && fail "the partial swap file was left on the full disk"
	umount "$tmp/small"
fi
echo "planted link and foreign file left alone; the run's swap undone; a killed fill reaped; a full disk said"
