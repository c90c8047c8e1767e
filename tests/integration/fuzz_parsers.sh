#!/usr/bin/env bash
# concurrent: libFuzzer on the parsers, in-process
# libFuzzer over every parser of outside bytes, briefly (make fuzz runs
# them for longer): guest frames, the console, workload output, stress-ng's
# YAML, configs, kernel recipes, cache metadata, the walk calibration, an
# engine point's timeline, Google Benchmark's JSON, a bzImage header and the
# commits a bisect walks (git-range.sh's output), /proc/PID/maps lines as
# the recorder reads them, a kernel log's reports (klog.c). A
# fixed seed and number of runs per target, from the committed seeds; a
# crash, a sanitizer report or an input that runs for minutes (a hang,
# -timeout) fails it.
. "$(dirname "$0")/../lib.sh"
for f in frame console output yaml config recipe walkcalib timeline gbench bzimage gitrange maps klog folded; do
	fz=$top/build/fuzz/${f}_fuzzer
	[[ -x $fz ]] || fail "$fz is not built"
	mkdir -p "$tmp/corpus-$f"
	# each input of Google Benchmark's JSON is a round of SQLite's JSON
	# functions: a tenth of the runs (3 s here, where 200,000 took 28)
	runs=200000
	[[ $f == gbench ]] && runs=20000
	"$fz" -artifact_prefix="$tmp/$f-" -seed=1 -timeout=120 -runs=$runs -max_len=65536 "$tmp/corpus-$f" \
		"$top/tests/fuzz/corpus-$f" >"$tmp/$f.log" 2>&1 || fail "libFuzzer on the $f parser: $(tail -n 30 "$tmp/$f.log")"
	echo "$f: $(grep -o 'Done [0-9]* runs' "$tmp/$f.log")"
done
