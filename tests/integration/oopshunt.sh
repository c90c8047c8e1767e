#!/usr/bin/env bash
# The oopshunt workload on the running kernel: its families fork, swap in
# and page out, and its checks find no page wrong; without swap the
# unreclaimable check says it could not run rather than 0; the engine
# target and rmapbench-sim refuse it, naming why.
. "$(dirname "$0")/../lib.sh"
"$RMAPBENCH_LOAD" oopshunt users=3 duration_s=1 hunt_kib=64 seed="$marker" >"$tmp/out" 2>"$tmp/err" ||
	fail "oopshunt: $(cat "$tmp/err")"
metric() { awk -v m="$1" '$1 == "metric" && $2 == m { print $3 }' "$tmp/out"; }
[[ $(metric oopshunt_pages_checked) -gt 0 && $(metric forks) -gt 0 ]] ||
	fail "no page checked or no fork: $(grep oopshunt "$tmp/out")"
[[ $(metric oopshunt_wrong_pages) == 0 ]] || fail "a wrong page on this kernel: $(grep oopshunt "$tmp/out")"
if [[ $(metric oopshunt_pages_swapped_out) == 0 ]]; then
	grep -q '^unavailable oopshunt_unreclaimable_pages no page went to swap' "$tmp/out" ||
		fail "without swap the unreclaimable check is not said unavailable: $(grep oopshunt "$tmp/out")"
else
	[[ $(metric oopshunt_unreclaimable_pages) == 0 ]] || fail "pages a pageout could not take: $(grep oopshunt "$tmp/out")"
fi

"$RMAPBENCH_SIM" oopshunt users=2 2>"$tmp/err" && fail "the simulator ran oopshunt"
grep -q "runs only natively" "$tmp/err" || fail "rmapbench-sim did not say why: $(cat "$tmp/err")"
printf 'target = engine\nworkloads = oopshunt\nusers = 2\n' >"$tmp/e.conf"
"$BIN" --db "$tmp/e.db" run "$tmp/e.conf" >/dev/null 2>"$tmp/err" && fail "the engine target ran oopshunt"
grep -q "e.conf: workload oopshunt runs only on the host and vm targets" "$tmp/err" ||
	fail "the engine target did not name the config: $(cat "$tmp/err")"
echo "oopshunt: checks on this kernel, refused by the engine"
