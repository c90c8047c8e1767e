# A 10,000-user aim7 point runs on this machine, and none of its processes
# is left afterwards.
. "$(dirname "$0")/../lib.sh"
db=$tmp/rb.db
"$BIN" --db "$db" --set seed=$marker run "$top/configs/aim7-10k.conf" >"$tmp/out" 2>"$tmp/err" || fail "10k point failed: $(tail -3 "$tmp/err")"
[[ $(sql "$db" "select value from results where metric = 'users'") == 10000.0 ]] || fail "not 10000 users"
[[ $(sql "$db" "select value from results where metric = 'users_failed'") == 0.0 ]] || fail "some users failed"
sql "$db" "select 'jobs_per_min=' || value from results where metric = 'jobs_per_min'"
wait_gone 5 || fail "$(leftovers) processes left"
exit 0
