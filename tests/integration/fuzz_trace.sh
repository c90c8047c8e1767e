# concurrent: libFuzzer on traces, in-process
# The libFuzzer target over the trace parser: a fixed seed and number of
# runs (the inputs still differ a little between runs, with the coverage
# each sees), from the scenario traces (make fuzz runs it for longer). An
# input that runs for minutes is a hang, reported with its bytes
# (-timeout), not the suite's ten-minute kill: a reclaim of 2^36 pages
# once looped over every one.
. "$(dirname "$0")/../lib.sh"
fz=$top/build/fuzz/trace_fuzzer
[[ -x $fz ]] || fail "$fz is not built"
mkdir -p "$tmp/corpus"
"$fz" -artifact_prefix="$tmp/" -seed=1 -timeout=120 -runs=150000 -max_len=4096 -print_final_stats=1 "$tmp/corpus" "$top/tests/fuzz/corpus" >"$tmp/log" 2>&1 || fail "libFuzzer found something: $(tail -30 "$tmp/log")"
grep -E "stat::number_of_executed_units" "$tmp/log"
exit 0
