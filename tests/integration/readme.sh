#!/usr/bin/env bash
# The README's commands, as shown: every ./run.sh line of its sh blocks is
# either run here (the short ones, against a database of a few small
# engine runs, by the binary run.sh ends in) and must exit as a user would
# expect, or named below as long (a sweep, a kernel build, a nightly),
# so that a command added to the README is run or declared. The README
# stays a guide: at most 300 lines.
set -u
source "$(dirname "$0")/../lib.sh"
readme=$top/README.md
n=$(wc -l <"$readme")
((n <= 300)) || fail "README.md is $n lines, more than 300"
# Long: each a sweep of real points, kernel builds or boots, or minutes of
# simulation; `make test` runs their machinery elsewhere.
long_re='^(\./run\.sh( --db [^ ]+)?)?( run configs/quick\.conf( --set users="1 8 64")?$| kernel build | compare-kernels | bisect | nightly| paper|$)|^make test$'
cd "$tmp" || fail "cd $tmp"
ln -s "$top/configs" configs
ln -s "$top/build" build
export RMAPBENCH_RECORD=${RMAPBENCH_RECORD:-$top/build/asan/rmapbench-record}
export RMAPBENCH_DB=$tmp/results/rmapbench.db
printf 'target = engine\nworkloads = aim7\nusers = 2 4\nrepetitions = 2\nsim_vma_ns = 100\njobs_per_user = 2\n' >t.conf
for i in $(seq 1 12); do
	"$BIN" run t.conf >/dev/null 2>&1 || fail "the engine run $i for the README's commands failed"
	"$BIN" --db other.db run t.conf >/dev/null 2>&1 || fail "the engine run $i into other.db failed"
done
ran=0 declared=0
while IFS= read -r line; do
	cmd=${line%%#*}
	cmd=$(sed 's/[[:space:]]*$//' <<<"$cmd")
	[[ -z $cmd ]] && continue
	if [[ $cmd =~ $long_re ]]; then
		declared=$((declared + 1))
		continue
	fi
	[[ $cmd == ./run.sh* ]] || fail "README: '$cmd' is neither a ./run.sh command nor declared long here"
	args=${cmd#./run.sh}
	eval "set -- $args"
	"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case "$1 ${2:-}" in
	"compare "*) ok="0 1" ;; # a verdict: regression or not, both are answers
	*) ok="0" ;;
	esac
	[[ " $ok " == *" $rc "* ]] || fail "README: '$cmd' exited $rc: $(tail -n 3 "$tmp/err")"
	[[ -s $tmp/out || -s $tmp/err ]] || fail "README: '$cmd' printed nothing"
	ran=$((ran + 1))
done < <(awk '/^```sh$/ {on = 1; next} /^```$/ {on = 0} on' "$readme")
((ran >= 10)) || fail "only $ran of the README's commands ran"
echo "README: $n lines; $ran of its commands ran as shown, $declared declared long"
