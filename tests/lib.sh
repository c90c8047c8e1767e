# Shared by the integration tests: the binaries, a scratch directory that
# is removed on any exit, and helpers. A test exits 0 to pass, 4 to skip.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${RMAPBENCH_BIN:-$top/build/asan/rmapbench}   # the harness under ASan+UBSan
export RMAPBENCH_LOAD=${RMAPBENCH_LOAD:-$top/build/rmapbench-load}
export RMAPBENCH_SIM=${RMAPBENCH_SIM:-$top/build/asan/rmapbench-sim}  # the engine target's points
export RMAPBENCH_PLOTS=$top/plots
export RMAPBENCH_AGENT=${RMAPBENCH_AGENT:-$top/build/rmapbench-agent}
export RMAPBENCH_CGROUP_NAME=rmapbench-test
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
unset RMAPBENCH_DB
# Hundreds of runnable users starve a polling shell on two cores: run the
# test itself above them (the harness resets the load to nice 0).
renice -n -15 $$ >/dev/null 2>&1
tmp=$(mktemp -d /tmp/rmapbench-it-XXXXXX)
cleanup() {
	pkill -KILL -f "seed=${marker:-none} " 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# A seed no other test uses: it is in the command line of every process of
# the point (users and job children are forked, not exec'd), so pgrep -f
# finds all of them.
marker=$((100000 + RANDOM * 7 + $$ % 1000))

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
skip() {
	echo "$*"
	exit 4
}
sql() { sqlite3 -batch "$1" "$2"; }
leftovers() { pgrep -f "seed=$marker " | wc -l; }
# Waits up to $1 seconds for no process of the marker to be left.
wait_gone() {
	for _ in $(seq 1 $(($1 * 10))); do
		[[ $(leftovers) -eq 0 ]] && return 0
		sleep 0.1
	done
	return 1
}
# expect RC TEXT CMD...: CMD exits RC with one line on stderr holding TEXT.
expect() {
	local want_rc=$1 text=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[[ $rc == "$want_rc" ]] || fail "'$*' exited $rc, not $want_rc: $(cat "$tmp/err")"
	[[ $(wc -l <"$tmp/err") == 1 ]] || fail "'$*' printed more than one error line: $(cat "$tmp/err")"
	grep -qF -- "$text" "$tmp/err" || fail "'$*' error lacks '$text': $(cat "$tmp/err")"
}
