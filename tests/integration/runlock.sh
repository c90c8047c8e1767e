#!/usr/bin/env bash
# Two measuring runs on one machine do not overlap: while another holds the
# run lock, a run refuses in one line (RMAPBENCH_LOCK_WAIT=0) or waits,
# saying for whom, and starts once it is released.
. "$(dirname "$0")/../lib.sh"
export RMAPBENCH_LOCK=$tmp/run.lock
printf 'users = 1\njobs_per_user = 1\nshared_mib = 1\nseed = %s\ncollectors = cpu\n' "$marker" >"$tmp/s.conf"
db=$tmp/r/rmapbench.db

printf 'pid 1, database elsewhere.db, since dawn\n' >"$RMAPBENCH_LOCK"
# The holder keeps the lock until the test lets go of it, however slow the
# machine: nothing below races a timer.
flock "$RMAPBENCH_LOCK" sh -c "while [ ! -e '$tmp/release' ]; do sleep 0.05; done" &
holder=$!
until ! flock -n "$RMAPBENCH_LOCK" true; do
	kill -0 "$holder" 2>/dev/null || fail "the lock holder died"
	sleep 0.05
done
RMAPBENCH_LOCK_WAIT=0 "$BIN" --db "$db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err" && fail "a run started beside a held lock"
[[ $(wc -l <"$tmp/err") == 1 ]] && grep -q "another measuring run holds.*elsewhere.db" "$tmp/err" ||
	fail "no one-line refusal naming the holder: $(cat "$tmp/err")"

"$BIN" --db "$db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err" &
waiter=$!
until grep -q "waiting for another measuring run" "$tmp/err"; do
	kill -0 "$waiter" 2>/dev/null || fail "the second run ended without waiting: $(cat "$tmp/err")"
	sleep 0.05
done
[[ -z $(sql "$db" "SELECT id FROM runs" 2>/dev/null) ]] || fail "the second run started while the lock was held"
touch "$tmp/release"
wait "$holder"
released=$(date +%s.%N)
wait "$waiter" || fail "the waiting run failed: $(cat "$tmp/err")"
started=$(sql "$db" "SELECT strftime('%s', started_at) FROM runs WHERE id = 1")
awk -v s="$started" -v r="$released" 'BEGIN { exit !(s + 1 >= r) }' || fail "the run started before the release"
grep -q "pid $waiter" "$RMAPBENCH_LOCK" || fail "the lock does not say who took it: $(cat "$RMAPBENCH_LOCK")"
# A lock file someone else made (another user, in a folder all may write)
# is not taken: its maker could hold it, and write what the refusal says.
# (root can make a file another user's for the test)
unset RMAPBENCH_LOCK
if [[ $(id -u) == 0 ]]; then
	other=$tmp/other.lock
	printf 'pid 1, database your run is cancelled\n' >"$other"
	chown nobody "$other"
	RMAPBENCH_LOCK=$other RMAPBENCH_LOCK_WAIT=0 "$BIN" --db "$db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err" &&
		fail "a run took a lock file of another user"
	grep -q "the run lock $other is not a file of ours (uid $(id -u nobody)" "$tmp/err" ||
		fail "another's lock: $(cat "$tmp/err")"
	# by default root's lock is in /run, where no one else can create it
	"$BIN" --db "$db" run "$tmp/s.conf" >"$tmp/out" 2>&1 || fail "a run with the default lock: $(cat "$tmp/out")"
	[[ -f /run/rmapbench.lock && $(stat -c %u /run/rmapbench.lock) == 0 ]] || fail "root's lock is not /run/rmapbench.lock"
fi
echo "a held lock: refused in one line, or waited for"
