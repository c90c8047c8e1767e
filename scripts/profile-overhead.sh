#!/usr/bin/env bash
# scripts/profile-overhead.sh DB [PAIRS] [USERS]: what the profile costs
# what it measures. configs/quick.conf at USERS (256) users, PAIRS (5)
# pairs of runs, profile off then on (A B A B), into DB; prints each
# run's jobs/min median, the medians of the off and on runs and their
# ratio, and the on runs' top kernel functions by children share. Needs
# root, as the profile's perf_event_open on every CPU does.
set -uo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/profile-overhead.sh DB [PAIRS] [USERS]}
pairs=${2:-5}
users=${3:-256}
make -s all >&2 || exit 2
run() { # PROFILE: the run's id
	./run.sh --db "$db" run configs/quick.conf --set users="$users" --set profile="$1" 2>/dev/null |
		sed -n 's/^run \([0-9]*\): done$/\1/p'
}
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
jpm() { # RUN: the median of its points' jobs/min
	sqlite3 "$db" "SELECT value FROM results WHERE run_id = $1 AND metric = 'jobs_per_min'" | median
}
off=() on=()
echo "# $(git rev-parse --short=12 HEAD) quick.conf at $users users, $pairs pairs off/on, $(date -u +%FT%TZ)"
for ((i = 1; i <= pairs; i++)); do
	a=$(run 0) && b=$(run 1) || { echo "a run failed" >&2; exit 1; }
	off+=("$(jpm "$a")") on+=("$(jpm "$b")")
	echo "pair $i: off run $a ${off[-1]} jobs/min, on run $b ${on[-1]} jobs/min"
done
mo=$(printf '%s\n' "${off[@]}" | median) mn=$(printf '%s\n' "${on[@]}" | median)
awk -v o="$mo" -v n="$mn" 'BEGIN {printf "median off %.0f, on %.0f jobs/min: on/off %.3f (%+.1f%%)\n", o, n, n / o, 100 * (n - o) / o}'
echo "top kernel functions, children share, mean over the profiled points:"
sqlite3 -separator ' ' "$db" "SELECT printf('  %-40s %5.1f%%', substr(metric, 18), avg(value)) FROM results
	WHERE metric LIKE 'profile.children.%' AND run_id IN (SELECT run_id FROM results WHERE metric = 'profile_samples')
	GROUP BY metric ORDER BY avg(value) DESC LIMIT 15"
