# A run that asks for swap gets it for its duration and never leaves it on.
. "$(dirname "$0")/../lib.sh"
[[ $(id -u) == 0 ]] || skip "needs root for swapon"
db=$tmp/rb.db
printf 'workloads = reclaim\nusers = 2\njobs_per_user = 2\nshared_mib = 16\nmem_limit_mib = 64\nswap_mib = 32\nseed = %s\n' "$marker" >"$tmp/s.conf"
"$BIN" --db "$db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc != 0 ]] && grep -q "swapon" "$tmp/err"; then
	skip "swapon is not permitted here: $(grep swapon "$tmp/err")"
fi
[[ $rc == 0 ]] || fail "exit $rc: $(cat "$tmp/err")"
grep -q rmapbench-swap /proc/swaps && fail "swap left on: $(cat /proc/swaps)"
ls -a "$tmp" | grep -q rmapbench-swap && fail "swap file left"
exit 0
