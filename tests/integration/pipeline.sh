# End to end on the host: a small sweep lands in SQLite as tidy rows, with
# the figures and the report, and reads back through runs/show/export.
. "$(dirname "$0")/../lib.sh"
cat >"$tmp/small.conf" <<CONF
workloads = aim7 forkstorm
users = 1 4
repetitions = 2
jobs_per_user = 5
shared_mib = 4
seed = $marker
CONF
db=$tmp/results/rmapbench.db
out=$("$BIN" --db "$db" run "$tmp/small.conf" 2>"$tmp/err") || fail "run failed: $(tail -5 "$tmp/err")"
grep -q "^run 1: done" <<<"$out" || fail "no 'run 1: done' in: $out"
grep -q "^report: $tmp/results/run-1/report.html" <<<"$out" || fail "no report path in: $out"
[[ $(sql "$db" "select status from runs where id = 1") == done ]] || fail "run not done"
[[ $(sql "$db" "select count(*) from points where status = 'done'") == 8 ]] || fail "expected 8 done points"
for m in jobs_per_min sys_s wall_s; do
	n=$(sql "$db" "select count(distinct p.workload || p.users || p.repetition) from results r join points p on p.id = r.point_id where r.metric = '$m'")
	[[ $n == 8 ]] || fail "$m at $n of 8 points"
done
# /proc/stat counts in clock ticks: a point shorter than one has no split
# of the machine's time, and says so rather than recording a zero.
n=$(sql "$db" "select (select count(*) from results where metric = 'sys_pct') +
	(select count(*) from unavailable where metric = 'sys_pct' and reason like '%within one clock tick%')")
[[ $n == 8 ]] || fail "sys_pct neither measured nor explained at every point ($n of 8)"
lock=$(sql "$db" "select (select count(*) from results where metric = 'lock_contentions') + (select count(*) from unavailable where metric = 'lock_contentions' and reason != '')")
[[ $lock == 8 ]] || fail "lock contention neither measured nor explained at every point ($lock)"
[[ $(sql "$db" "select count(*) from results where metric = 'rmap_walks' and value = 0") == 0 ]] || fail "a zero stands in for an unmeasured rmap walk count"
for f in jobs_per_min jobs_per_min_per_user sys_pct lock_contentions; do
	[[ -s $tmp/results/run-1/$f.png && -s $tmp/results/run-1/$f.svg ]] || fail "figure $f missing"
	grep -q "$f.svg" "$tmp/results/run-1/report.html" || fail "report does not show $f"
done
grep -q "<h2>AIM7 crossover</h2>" "$tmp/results/run-1/report.html" || fail "the report has no crossover"
"$BIN" --db "$db" show 1 | grep -A3 "^AIM7 crossover" | grep -Eq "^  [a-z0-9-]+: (crossed at|not reached|at or below)" || fail "show has no crossover: $("$BIN" --db "$db" show 1 | tail -5)"
"$BIN" --db "$db" runs | grep -q "^1 .*done" || fail "runs does not list run 1"
"$BIN" --db "$db" show last | grep -q "jobs_per_min  *2 " || fail "show has no jobs_per_min with n=2"
"$BIN" --db "$db" export 1 --format csv >"$tmp/x.csv" || fail "export csv"
head -1 "$tmp/x.csv" | grep -q '^run_id,point_id,workload,users,repetition,point_status,metric,value,unit,unavailable_reason$' || fail "csv header"
rows=$(sql "$db" "select (select count(*) from results) + (select count(*) from unavailable)")
[[ $(($(wc -l <"$tmp/x.csv") - 1)) == "$rows" ]] || fail "csv rows != database rows"
"$BIN" --db "$db" export 1 --format json >"$tmp/x.json" || fail "export json"
[[ $(sqlite3 :memory: "select json_valid(readfile('$tmp/x.json')), json_array_length(readfile('$tmp/x.json'), '\$.results')") == "1|$rows" ]] || fail "json invalid or short"
"$BIN" --db "$db" export 1 --format xml 2>"$tmp/e" && fail "xml export accepted"
grep -q -- "--format xml: expected csv or json" "$tmp/e" || fail "bad format error: $(cat "$tmp/e")"
[[ $(leftovers) -eq 0 ]] || fail "processes left after the run"
exit 0
