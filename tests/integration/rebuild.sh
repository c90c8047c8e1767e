#!/usr/bin/env bash
# concurrent: builds a copy of the tree in its own folder
# The build is incremental, in a copy of the tree: a second make does
# nothing, and touching one engine file recompiles that file alone and
# relinks only the binaries that hold the engine (the CLI and the
# benchmarks), not the workload binary nor the guest agent.
set -u
source "$(dirname "$0")/../lib.sh"
copy="$tmp/tree"
mkdir -p "$copy"
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$copy") ||
	fail "copying the tree"
# a bare make is make all (README: "make builds everything")
make -C "$copy" -s -j2 >"$tmp/make.log" 2>&1 || fail "make: $(tail -n 5 "$tmp/make.log")"
for b in rmapbench rmapbench-load rmapbench-agent rmapbench-bench; do
	[[ -x $copy/build/$b ]] || fail "a bare make did not build build/$b"
done
make -C "$copy" -q all || fail "a second make would do something: $(make -C "$copy" -n all | head -n 5)"
touch "$copy/engine/interval_tree.c"
make -C "$copy" -n all >"$tmp/plan" 2>&1
compiles=$(grep -E -- ' -c -o ' "$tmp/plan" | grep -o -- '-c -o [^ ]*' | sort)
[[ $compiles == "-c -o build/obj/engine/interval_tree.o" ]] ||
	fail "touching engine/interval_tree.c compiles: ${compiles:-nothing}"
for bin in rmapbench rmapbench-bench; do
	grep -q -- "-o build/$bin " "$tmp/plan" || fail "build/$bin is not relinked"
done
for bin in rmapbench-load rmapbench-agent; do
	grep -q -- "-o build/$bin " "$tmp/plan" && fail "build/$bin is relinked, but holds no engine code"
done
echo "a no-op make does nothing; one engine file rebuilds itself and two binaries"
