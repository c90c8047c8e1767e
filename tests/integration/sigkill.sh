# The harness SIGKILLed in the middle of a point: every workload process
# dies with it (the PR_SET_PDEATHSIG chain), the database stays consistent
# with the points already recorded, and the next open marks the run aborted.
. "$(dirname "$0")/../lib.sh"
db=$tmp/rb.db
cat >"$tmp/k.conf" <<CONF
workloads = aim7
users = 3 300
jobs_per_user = 3000
shared_mib = 4
seed = $marker
CONF
"$BIN" --db "$db" run "$tmp/k.conf" >/dev/null 2>&1 &
h=$!
# Wait for the first point to be recorded and the second (300 users) to be
# under way, then kill the harness outright. The deadlines are generous: a
# slow or loaded CI machine takes longer, and nothing here is a timing test.
for _ in $(seq 1 1200); do
	[[ $(sql "$db" "select count(*) from points where status = 'done'" 2>/dev/null) == 1 ]] && break
	kill -0 $h 2>/dev/null || fail "the harness ended before its second point"
	sleep 0.1
done
[[ $(sql "$db" "select count(*) from points where status = 'done'" 2>/dev/null) == 1 ]] ||
	fail "the 3-user point was not recorded within 120 s"
# Any number well above the first point's 3 is the second point under way.
# Catch it while its users are forked and parked on the start gate: once
# they run, 300 busy users can starve this loop for the whole point (a CI
# machine saw 106 of them left, the point's tail, "after 60 s"). Decide on
# one count and kill at once: a second count can see the point's tail (a
# faster CI machine saw 45 after the loop had seen 60), and 3,000 jobs a
# user keep the point under way for many seconds even there.
n=0
for i in $(seq 1 600); do
	n=$(leftovers)
	[[ $n -ge 60 ]] && break
	sleep 0.1
done
if [[ $n -lt 60 ]]; then
	states=$(pgrep -f "seed=$marker " | xargs -r ps -o stat= -p 2>/dev/null | cut -c1 | sort | uniq -c | tr -s ' \n' ' ')
	alive=$(kill -0 $h 2>/dev/null && echo alive || echo gone)
	fail "the 300-user point never started ($n processes after $i polls, states:$states; harness $alive; nice $(ps -o ni= -p $$);" \
		"points: $(sql "$db" "select users || ':' || status from points" 2>/dev/null | tr '\n' ' ');" \
		"log: $(tail -c 600 "$db"-run-1/point-002.log 2>/dev/null | tr '\n' ' '))"
fi
kill -KILL $h
wait $h 2>/dev/null
wait_gone 15 || fail "$(leftovers) workload processes outlived the harness"
[[ $(sql "$db" "pragma integrity_check") == ok ]] || fail "database not intact"
[[ $(sql "$db" "select count(*) from points where status = 'done'") == 1 ]] || fail "the finished point was not kept"
[[ $(sql "$db" "select count(*) from results r join points p on p.id = r.point_id where p.users = 300") == 0 ]] ||
	fail "the 300-user point has results: it ended before the kill ($n processes were seen)"
[[ $(sql "$db" "select status from runs") == running ]] || fail "expected the killed run still 'running' before the next open"
"$BIN" --db "$db" runs >"$tmp/runs" || fail "runs after a kill"
grep -q "^1 *aborted" "$tmp/runs" || fail "the killed run was not marked aborted: $(cat "$tmp/runs")"
[[ -z $(ls /sys/fs/cgroup/pids/rmapbench-test 2>/dev/null | grep '^h') ]] || {
	# the next run cleans the cgroups a killed harness left
	printf 'users = 1\njobs_per_user = 1\nseed = %s\n' "$marker" >"$tmp/one.conf"
	"$BIN" --db "$db" run "$tmp/one.conf" >/dev/null 2>&1 || fail "a run after the kill failed"
	[[ -z $(ls /sys/fs/cgroup/pids/rmapbench-test 2>/dev/null | grep '^h') ]] || fail "stale cgroups were not cleaned"
}
exit 0
