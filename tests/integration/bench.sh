# The microbenchmarks: C only outside the shim; every benchmark runs once;
# `rmapbench bench` stores aggregates with the library version, keeps
# Google Benchmark's JSON, and fits the walk cost (legacy grows with N, the
# chain designs do not).
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
[[ $(sqlite3 :memory: "select json_extract(readfile('$json'), '\$.context.library_version') is not null and count(*) = sum(json_extract(value, '\$.name') is not null and json_extract(value, '\$.run_type') = 'aggregate' and json_extract(value, '\$.aggregate_name') is not null and json_extract(value, '\$.real_time') is not null and json_extract(value, '\$.cpu_time') is not null and json_extract(value, '\$.time_unit') is not null and json_extract(value, '\$.iterations') is not null and json_extract(value, '\$.repetitions') = 2) from json_each(readfile('$json'), '\$.benchmarks')") == 1 ]] || fail "the JSON lacks Google Benchmark's keys"
for agg in mean median stddev cv; do
	n=$(sqlite3 "$db" "select count(distinct point_id) from results where run_id = $run and metric = 'real_time_$agg'")
	[[ $n == 10 ]] || fail "real_time_$agg at $n of 10 benchmarks"
done
[[ $(sqlite3 "$db" "select count(*) from point_attrs a join points p on p.id = a.point_id where p.run_id = $run and a.key = 'library_version' and a.value != 'unknown'") == 10 ]] || fail "library version not recorded"
legacy=$(awk -F'\t' '$1 == "legacy" && $2 == "page_referenced" {print $4}' "$tmp/b.db-calibration.tsv")
avc=$(awk -F'\t' '$1 == "avc" && $2 == "page_referenced" {print $4}' "$tmp/b.db-calibration.tsv")
[[ -n $legacy && -n $avc ]] || fail "calibration lacks the walks: $(cat "$tmp/b.db-calibration.tsv")"
awk -v l="$legacy" -v a="$avc" 'BEGIN { exit !(l > 1 && (a < 0 ? -a : a) < l / 10) }' || fail "legacy's walk does not grow with N ($legacy ns per child) or avc's does ($avc)"
echo "legacy $legacy ns per child, avc $avc"
exit 0
