# Ctrl-C once: the current point finishes and is recorded, the run stops
# as 'aborted'. Twice: the current point is killed at once. Either way no
# process of the workload is left.
. "$(dirname "$0")/../lib.sh"
db=$tmp/rb.db
cat >"$tmp/c.conf" <<CONF
workloads = aim7
users = 40 41 42
duration_s = 4
shared_mib = 4
seed = $marker
CONF
"$BIN" --db "$db" run "$tmp/c.conf" >"$tmp/out1" 2>"$tmp/err1" &
h=$!
# One count decides, as in sigkill.sh: a second could see the point's end.
n=0
for _ in $(seq 1 100); do n=$(leftovers); [[ $n -ge 40 ]] && break; sleep 0.1; done
[[ $n -ge 40 ]] || fail "the first point never started ($n processes)"
kill -INT $h
wait $h
rc=$?
[[ $rc == 130 ]] || fail "exit $rc after one Ctrl-C, not 130: $(cat "$tmp/err1")"
wait_gone 10 || fail "$(leftovers) processes left after one Ctrl-C"
[[ $(sql "$db" "select status from runs") == aborted ]] || fail "run not aborted"
[[ $(sql "$db" "select group_concat(status) from points") == done ]] || fail "the current point was not finished and recorded: $(sql "$db" "select group_concat(status) from points")"
[[ $(sql "$db" "select count(*) from results where metric = 'jobs_per_min'") == 1 ]] || fail "its results were not kept"

sed -i 's/duration_s = 4/duration_s = 60/' "$tmp/c.conf"
"$BIN" --db "$db" run "$tmp/c.conf" >"$tmp/out2" 2>"$tmp/err2" &
h=$!
for _ in $(seq 1 100); do [[ $(leftovers) -ge 40 ]] && break; sleep 0.1; done
kill -INT $h
sleep 0.3
kill -INT $h
wait $h
rc=$?
[[ $rc == 130 ]] || fail "exit $rc after two Ctrl-C, not 130"
# the point was killed, not finished: its 60 s left no jobs/min behind
[[ $(sql "$db" "select count(*) from results where run_id = 2 and metric = 'jobs_per_min'") == 0 ]] ||
	fail "two Ctrl-C let the point run to its end"
wait_gone 10 || fail "$(leftovers) processes left after two Ctrl-C"
[[ $(sql "$db" "select status from runs where id = 2") == aborted ]] || fail "second run not aborted"
[[ $(sql "$db" "select status from points where run_id = 2") == aborted ]] || fail "the killed point is not marked aborted"
[[ $(sql "$db" "select count(*) from results where run_id = 1") -gt 0 ]] || fail "the first run's results were lost"
exit 0
