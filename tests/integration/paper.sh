# ./run.sh paper's pipeline on a small profile (seconds): a run per design,
# each sweep stopped after its crossing and bisected around it, the JSON
# of each design's crossover and shares, and the figure.
. "$(dirname "$0")/../lib.sh"
db=$tmp/r.db
cat >"$tmp/small.conf" <<'C'
target = engine
workloads = reclaim
users = 10 20 40 80 120 160 240 320
stop_after_crossing = 1
refine_crossover = 2
repetitions = 1
sim_cpus = 2
sim_ram_mib = 48
sim_page_kib = 64
sim_cache_mbps = 7.5
sim_vma_ns = 200000
sim_compute_ns = 100
shared_kib = 512
cow_fraction = 1
jobs_per_user = 4
mix = compute:4,fork:1,private:1
compute_iters = 1000000
child_kib = 64
private_mib = 1
C
"$BIN" --db "$db" paper --config "$tmp/small.conf" --json >"$tmp/j" 2>"$tmp/e" || fail "paper exited $?: $(tail -5 "$tmp/e")"
j() { sqlite3 :memory: "select json_extract(readfile('$tmp/j'), '$1')"; }
for d in legacy avc modern; do
	[[ -n $(j "\$.$d.crossover_users") ]] || fail "no crossover for $d: $(cat "$tmp/j")"
	[[ -n $(j "\$.$d.sys_pct") ]] || fail "no sys_pct for $d"
done
l=$(j '$.legacy.crossover_users') a=$(j '$.avc.crossover_users')
((l < a)) || fail "legacy crossed at $l, not before avc at $a"
[[ $(sql "$db" "select count(*) from runs where status = 'done'") == 3 ]] || fail "three runs"
# legacy's sweep stopped after its crossing, and bisected around it
[[ $(sql "$db" "select max(users) from points where run_id = 1") -lt 320 ]] || fail "legacy's sweep did not stop after crossing"
[[ $(sql "$db" "select count(*) from points where run_id = 1 and users not in (10, 20, 40, 80, 120, 160, 240, 320)") -ge 1 ]] ||
	fail "no bisected point"
# the summary lines count the planned points, and the bisections apart
grep -q '^\[refining 1/2\] reclaim users=' "$tmp/e" || fail "no bisection's summary line: $(grep '^\[' "$tmp/e" | head -20)"
! grep -E '^\[([0-9]+)/([0-9]+)\]' "$tmp/e" | awk -F'[][/]' '$2 > $3 { bad = 1 } END { exit !bad }' ||
	fail "a summary line past its total: $(grep '^\[' "$tmp/e")"
f=$(grep -o "figure: .*" "$tmp/e" | cut -d' ' -f2)
[[ -s $f ]] || fail "no figure: $(cat "$tmp/e")"
# the third panel: each design's point nearest its crossing over its time,
# from the simulator's timeline; and that point's median second
tl=${f%/*}/paper-timeline.tsv
[[ $(grep -c '^# users' "$tl") == 3 && $(grep -v '^#' "$tl" | grep -vc -e NaN -e '^$') -ge 6 ]] ||
	fail "the timelines of the points nearest the crossings: $(head -c 600 "$tl")"
[[ -n $(j '$.legacy.sys_pct_1s_median') && -n $(j '$.avc.iowait_pct_1s_median') ]] || fail "no median second: $(cat "$tmp/j")"
exit 0
