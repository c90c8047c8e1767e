#!/usr/bin/env bash
# Outside bytes are hostile: what a workload prints, what a config or a
# --set says. Each case here broke a run, or let text through, before.
. "$(dirname "$0")/../lib.sh"
db=$tmp/r/rb.db

# A workload that reports nan and inf, and garbage: one bad measurement is
# recorded as unavailable with its reason, the point and the run are done.
cat >"$tmp/load" <<'SH'
#!/bin/sh
echo "metric jobs_per_min nan jobs/min"
echo "metric jobs_per_min_per_user inf jobs/min"
echo "metric users 2 users"
printf 'metric %0300d 1 x\n' 0
printf '\001\002\377 not a protocol line\n'
echo "unavailable"
echo "info"
SH
chmod +x "$tmp/load"
printf 'users = 2\nduration_s = 1\ncollectors = cpu\n' >"$tmp/nan.conf"
RMAPBENCH_LOAD=$tmp/load "$BIN" --db "$db" run "$tmp/nan.conf" >"$tmp/out" 2>&1 ||
	fail "a run whose workload printed nan failed: $(tail -n 3 "$tmp/out")"
[[ $(sql "$db" "SELECT status FROM runs WHERE id = 1") == done ]] || fail "the run is not done"
[[ $(sql "$db" "SELECT status FROM points WHERE run_id = 1") == done ]] || fail "the point is not done"
reason=$(sql "$db" "SELECT reason FROM unavailable WHERE metric = 'jobs_per_min'")
[[ $reason == *"not a finite number"* ]] || fail "nan is not recorded as unavailable: '$reason'"
[[ $(sql "$db" "SELECT count(*) FROM unavailable WHERE metric = 'jobs_per_min_per_user'") == 1 ]] ||
	fail "inf is not recorded as unavailable"
[[ $(sql "$db" "SELECT value FROM results WHERE metric = 'users'") == 2.0 ]] || fail "the good line was lost"
"$BIN" --db "$db" export 1 --format json | python3 -c 'import json,sys; json.load(sys.stdin)' ||
	fail "the export is not valid JSON"

# Non-finite and control characters are refused at the source, naming the key.
printf 'duration_s = nan\n' >"$tmp/d.conf"
expect 2 "$tmp/d.conf:1: duration_s: 'nan' is not a finite number" "$BIN" --db "$db" run "$tmp/d.conf"
expect 2 "duration_s: 'inf' is not a finite number" "$BIN" --db "$db" --set duration_s=inf run "$tmp/nan.conf"
expect 2 "a control character" "$BIN" --db "$db" --set $'seed=1\nrun rm -rf /' run "$tmp/nan.conf"
# a --set line is never cut (the last of its users would change silently)
long="users=$(printf '%08d ' $(seq 1 60))"
expect 2 "--set users: longer than" "$BIN" --db "$db" --set "$long" run "$tmp/nan.conf"
[[ $(sql "$db" "SELECT count(*) FROM runs") == 1 ]] || fail "a refused config recorded a run"
expect 2 "/dev/zero: not a regular file" "$BIN" --db "$db" run /dev/zero
head -c 2M /dev/zero | tr '\0' '#' >"$tmp/big.conf"
expect 2 "big.conf: larger than 1024 KiB" "$BIN" --db "$db" run "$tmp/big.conf"
# a FIFO as a config is refused at once, never waited on for a writer
mkfifo "$tmp/fifo.conf"
timeout 20 "$BIN" --db "$db" run "$tmp/fifo.conf" >"$tmp/out" 2>"$tmp/err"
[[ $? == 2 ]] && grep -q "fifo.conf: not a regular file" "$tmp/err" || fail "a FIFO config: $(cat "$tmp/err")"
# a bad mix is refused when the config is read, naming its line, not
# when each point runs after the run has started
printf 'users = 1 2\nmix = cow:3,nosuch:1\n' >"$tmp/mix.conf"
expect 2 "mix.conf:2: mix: unknown task 'nosuch'" "$BIN" --db "$db" run "$tmp/mix.conf"
expect 2 "/dev/zero: not a regular file" "$BIN" --db "$db" engine replay /dev/zero --variant avc --no-db

# The stress-ng companion runs inside the point's cgroup, and when it
# fails the point fails with its reason (the run used to end 'done').
if command -v stress-ng >/dev/null; then
	# stress-ng runs as root: a config names only what its table allows,
	# never a file (this once truncated and rewrote --log-file's)
	echo precious >"$tmp/victim"
	printf 'users = 1\nduration_s = 2\ncollectors = cpu\nstress_ng = --cpu 1 --log-file %s\n' "$tmp/victim" >"$tmp/log.conf"
	expect 2 "$tmp/log.conf:4: stress_ng: '--log-file' is not an option a companion may be given" \
		"$BIN" --db "$db" run "$tmp/log.conf"
	[[ $(cat "$tmp/victim") == precious ]] || fail "a companion's option rewrote a file"
	expect 2 "stress_ng: --vm-bytes takes a size" "$BIN" --db "$db" --set "stress_ng=--vm 1 --vm-bytes /etc/x" run "$tmp/nan.conf"
	expect 2 "stress_ng: '--timeout' is not an option" "$BIN" --db "$db" --set "stress_ng=--cpu 1 --timeout 9" run "$tmp/nan.conf"
	printf 'users = 1\nduration_s = 2\ncollectors = cpu\nstress_ng = --cpu 1 --cpu-method nosuch\n' >"$tmp/sng.conf"
	"$BIN" --db "$db" run "$tmp/sng.conf" >"$tmp/out" 2>&1 && fail "a failed companion left the run done"
	err=$(sql "$db" "SELECT error FROM points WHERE run_id = (SELECT max(id) FROM runs)")
	[[ $err == *"stress-ng companion"* ]] || fail "the point does not say the companion failed: '$err'"
	printf 'users = 1\nduration_s = 3\ncollectors = cpu\nstress_ng = --vm 1 --vm-bytes 4M --vm-keep\n' >"$tmp/ok.conf"
	"$BIN" --db "$db" run "$tmp/ok.conf" >"$tmp/out" 2>&1 &
	runner=$!
	where=""
	while kill -0 "$runner" 2>/dev/null; do
		sleep 0.1
		p=$(pgrep -f -- "stress-ng --vm 1 --vm-bytes 4M" | head -n 1)
		[[ -n $p ]] && where=$(cat "/proc/$p/cgroup" 2>/dev/null) && [[ -n $where ]] && break
	done
	wait "$runner" || fail "the run with a companion failed: $(tail -n 3 "$tmp/out")"
	[[ $where == *"$RMAPBENCH_CGROUP_NAME"* ]] || fail "the companion ran outside the point's cgroup: $where"
fi
echo "hostile output and input: refused or recorded as unavailable, nothing lost"
