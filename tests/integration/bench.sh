# The microbenchmarks: C only outside the shim; every benchmark runs once;
# `rmapbench bench` stores each repetition with the library version, keeps
# Google Benchmark's JSON, and fits the walk cost (legacy grows with N, the
# chain designs do not); --variant records one design's engine benchmarks
# under names without it.
. "$(dirname "$0")/../lib.sh"
cxx=$(cd "$top" && find bench -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.hpp' | sort | tr '\n' ' ')
[[ $cxx == "bench/shim.cc " ]] || fail "C++ outside the shim: $cxx"
"$top/build/rmapbench-bench" --benchmark_min_time=0.001 --benchmark_out="$tmp/all.json" --benchmark_out_format=json >/dev/null 2>"$tmp/err" || fail "a benchmark failed: $(tail -5 "$tmp/err")"
for op in page_referenced try_to_unmap anon_vma_fork exit_unlink_anon_vmas; do
	for v in legacy avc-rc avc modern; do
		n=$(sqlite3 :memory: "select count(*) from json_each(readfile('$tmp/all.json'), '\$.benchmarks') where json_extract(value, '\$.name') like 'engine/$op/$v/%'")
		[[ $n -ge 4 ]] || fail "engine/$op/$v ran $n instances"
	done
done
for h in fork_exit cow_fault munmap_cowed; do
	[[ $(sqlite3 :memory: "select count(*) from json_each(readfile('$tmp/all.json'), '\$.benchmarks') where json_extract(value, '\$.name') like 'host/$h%'") -ge 1 ]] || fail "host/$h did not run"
done
[[ $(sqlite3 :memory: "select count(*) from json_each(readfile('$tmp/all.json'), '\$.benchmarks') where json_extract(value, '\$.error_occurred')") == 0 ]] || fail "a benchmark reported an error"

db=$tmp/b.db
"$BIN" --db "$db" bench 'engine/page_referenced/(legacy|avc)/' --repetitions 2 --min-time 0.001 >"$tmp/out" 2>&1 || fail "rmapbench bench: $(tail -5 "$tmp/out")"
run=$(sqlite3 "$db" "select id from runs where target = 'bench' and status = 'done'")
[[ -n $run ]] || fail "no done bench run"
json=$tmp/b.db-run-$run/bench.json
[[ -s $json ]] || fail "the JSON file was not kept"
# the keys Google Benchmark's own tools (compare.py) read
[[ $(sqlite3 :memory: "select json_extract(readfile('$json'), '\$.context.library_version') is not null and count(*) = sum(json_extract(value, '\$.name') is not null and (json_extract(value, '\$.run_type') = 'aggregate' and json_extract(value, '\$.aggregate_name') is not null or json_extract(value, '\$.run_type') = 'iteration' and json_extract(value, '\$.repetition_index') between 0 and 1) and json_extract(value, '\$.real_time') is not null and json_extract(value, '\$.cpu_time') is not null and json_extract(value, '\$.time_unit') is not null and json_extract(value, '\$.iterations') is not null and json_extract(value, '\$.repetitions') = 2) from json_each(readfile('$json'), '\$.benchmarks')") == 1 ]] || fail "the JSON lacks Google Benchmark's keys"
# each repetition a point of its own: the samples a verdict tests
[[ $(sqlite3 "$db" "select count(*) from points where run_id = $run and workload like 'engine/%' and status = 'done'") == 20 ]] ||
	fail "expected 10 benchmarks x 2 repetitions as points"
for m in real_time cpu_time vmas_per_walk; do
	n=$(sqlite3 "$db" "select count(*) from results r join points p on p.id = r.point_id where r.run_id = $run and r.metric = '$m' and p.workload like 'engine/%'")
	[[ $n == 20 ]] || fail "$m at $n of 20 repetitions"
done
[[ $(sqlite3 "$db" "select count(distinct repetition) from points where run_id = $run and workload like 'engine/%'") == 2 ]] ||
	fail "the repetitions are not numbered"
[[ $(sqlite3 "$db" "select count(*) from point_attrs a join points p on p.id = a.point_id where p.run_id = $run and a.key = 'library_version' and a.value != 'unknown'") == 20 ]] || fail "library version not recorded"
legacy=$(awk -F'\t' '$1 == "legacy" && $2 == "page_referenced" {print $4}' "$tmp/b.db-calibration.tsv")
avc=$(awk -F'\t' '$1 == "avc" && $2 == "page_referenced" {print $4}' "$tmp/b.db-calibration.tsv")
[[ -n $legacy && -n $avc ]] || fail "calibration lacks the walks: $(cat "$tmp/b.db-calibration.tsv")"
awk -v l="$legacy" -v a="$avc" 'BEGIN { exit !(l > 1 && (a < 0 ? -a : a) < l / 10) }' || fail "legacy's walk does not grow with N ($legacy ns per child) or avc's does ($avc)"

# one design: its name is the run's variant, not part of the rows
"$BIN" --db "$db" bench --variant avc-rc --repetitions 2 --min-time 0.001 >"$tmp/out" 2>&1 || fail "bench --variant: $(tail -5 "$tmp/out")"
v=$(sqlite3 "$db" "select id from runs where variant = 'avc-rc' and target = 'bench'")
[[ -n $v ]] || fail "bench --variant avc-rc recorded no run of that variant"
[[ $(sqlite3 "$db" "select count(*) from points where run_id = $v and workload like '%avc%'") == 0 ]] || fail "the design is still in the rows' names"
[[ $(sqlite3 "$db" "select count(distinct workload) from points where run_id = $v and workload like 'engine/page_referenced/children:%'") == 5 ]] ||
	fail "engine/page_referenced/children:N rows missing: $(sqlite3 "$db" "select distinct workload from points where run_id = $v" | head -3)"
[[ $(sqlite3 "$db" "select count(*) from points where run_id = $v and workload like 'host/%'") == 0 ]] || fail "--variant ran host benchmarks"
expect 2 "give one" "$BIN" --db "$db" bench engine/ --variant avc
expect 2 "--variant nosuch" "$BIN" --db "$db" bench --variant nosuch
echo "legacy $legacy ns per child, avc $avc"
exit 0
