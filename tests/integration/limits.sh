# The cage holds: a pids limit below the users count stops the point with a
# clear error instead of the machine running out of processes; nothing is
# left behind; the run is 'failed'.
. "$(dirname "$0")/../lib.sh"
[[ $(id -u) == 0 ]] || skip "needs root for cgroups"
db=$tmp/rb.db
printf 'users = 50\npids_max = 20\njobs_per_user = 2\nshared_mib = 2\nseed = %s\n' "$marker" >"$tmp/l.conf"
"$BIN" --db "$db" run "$tmp/l.conf" >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc == 1 ]] || fail "exit $rc, expected 1 (a failed point)"
[[ $(sql "$db" "select status from runs") == failed ]] || fail "run not failed"
err=$(sql "$db" "select error from points")
grep -q "fork failed after .* of 50 users" <<<"$err" || fail "point error does not explain: $err"
[[ $(sql "$db" "select value > 0 from results where metric = 'pids_limit_hits'") == 1 ]] || fail "pids limit hits not recorded"
wait_gone 5 || fail "processes left"
exit 0
