#!/usr/bin/env bash
# Runs every test: the unit binaries given as arguments (TAP, under
# ASan+UBSan), then each tests/integration/*.sh (exit 0 pass, 4 skip, else
# fail). Ends with the slowest tests, then "N passed, N failed, N
# skipped"; exits 1 on any failure.
#
# Two lanes. An integration test holds the machine by default (the run
# lock, cgroups, swap, guests, counts of processes): those run one after
# another. A test that touches nothing of the machine's but its own
# temporary folder says so in its header with a line
#   # concurrent: WHY
# and runs in a second lane beside the first, after the unit binaries:
# on two cores the suite takes the longer lane, not the sum. The second
# lane first runs $RMAPBENCH_SECOND_LANE_BUILD when set (make test's build
# of what only it runs), its failure counted as one.
set -u
cd "$(dirname "$0")/.."
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
lanes=$(mktemp -d /tmp/rmapbench-lanes-XXXXXX)
trap 'rm -rf "$lanes"' EXIT

# unit BIN: its TAP lines counted; prints its result block
unit() {
	local t=$1 name out rc ok bad start
	name=$(basename "$t")
	start=$(date +%s)
	out=$("$t" 2>&1)
	rc=$?
	ok=$(grep -c '^ok ' <<<"$out")
	bad=$(grep -c '^not ok ' <<<"$out")
	if [[ $rc -ne 0 && $bad -eq 0 ]]; then
		bad=1 # crashed or a sanitizer stopped it
	fi
	echo "$ok $bad 0" >>"$lanes/counts"
	echo "$(($(date +%s) - start)) $name" >>"$lanes/times"
	if [[ $bad -ne 0 ]]; then
		echo "FAIL $name ($ok passed, $bad failed, exit $rc)"
		grep -v '^ok ' <<<"$out" | tail -n 40 | sed 's/^/    /'
	else
		echo "ok   $name ($ok checks)"
	fi
}

# integration SCRIPT: exit 0 pass, 4 skip, else fail; prints its result
integration() {
	local t=$1 name out rc secs start
	name=$(basename "$t" .sh)
	start=$(date +%s)
	out=$(timeout 600 bash "$t" 2>&1)
	rc=$?
	secs=$(($(date +%s) - start))
	echo "$secs $name" >>"$lanes/times"
	case $rc in
	0) echo "1 0 0" >>"$lanes/counts"; echo "ok   $name (${secs}s)" ;;
	4) echo "0 0 1" >>"$lanes/counts"; echo "skip $name: $(tail -n 1 <<<"$out")" ;;
	*) echo "0 1 0" >>"$lanes/counts"; echo "FAIL $name (exit $rc, ${secs}s)"; tail -n 40 <<<"$out" | sed 's/^/    /' ;;
	esac
}

machine=() concurrent=()
for t in tests/integration/*.sh; do
	if grep -q '^# concurrent: ' "$t"; then concurrent+=("$t"); else machine+=("$t"); fi
done

# build: the second lane's own binaries, timed as a test is
build() {
	local start out
	start=$(date +%s)
	if ! out=$(bash -c "$RMAPBENCH_SECOND_LANE_BUILD" 2>&1); then
		echo "0 1 0" >>"$lanes/counts"
		echo "FAIL the second lane's build"
		tail -n 40 <<<"$out" | sed 's/^/    /'
	fi
	echo "$(($(date +%s) - start)) second-lane-build" >>"$lanes/times"
}

# the second lane: its build, the unit binaries, then the tests that share nothing
(
	[[ -n ${RMAPBENCH_SECOND_LANE_BUILD:-} ]] && build
	for t in "$@"; do unit "$t"; done
	for t in "${concurrent[@]}"; do integration "$t"; done
) >"$lanes/second" 2>&1 &
second=$!
for t in "${machine[@]}"; do integration "$t"; done
wait "$second"
cat "$lanes/second"

echo "slowest: $(sort -rn "$lanes/times" | head -n 6 | awk '{ printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1 }')"
read -r passed failed skipped < <(awk '{ p += $1; f += $2; s += $3 } END { print p + 0, f + 0, s + 0 }' "$lanes/counts")
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
