#!/usr/bin/env bash
# scripts/nightly-false-alarms.sh DB [CONFIG] [PLAIN] [EVERY]: how often a
# night with nothing changed fails, and whether an injected regression
# still does. Two baseline nights of CONFIG (configs/ci.conf), then PLAIN
# (20) plain nights with an injected one after every EVERY (5) plain ones,
# alternately --set compute_iters=2000000 (a slower user) and --set
# private_mib=16 (more memory a user). Prints a line a night (its exit
# status, the regressions it confirmed and those it did not, seconds) and
# the counts. DB is kept for `./run.sh trend`. Needs root, as the nightly.
set -uo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/nightly-false-alarms.sh DB [CONFIG] [PLAIN] [EVERY]}
config=${2:-configs/ci.conf}
plain=${3:-20}
every=${4:-5}
make -s all >&2 || exit 2
injections=("compute_iters=2000000" "private_mib=16")
out=$(mktemp /tmp/rmapbench-false-alarms-XXXXXX)
trap 'rm -f "$out"' EXIT
plain_failed=0 injected=0 injected_failed=0 k=0
night() { # KIND [--set KV]
	local kind=$1 t0 rc
	shift
	t0=$(date +%s)
	./run.sh --db "$db" nightly --config "$config" "$@" >"$out" 2>&1
	rc=$?
	local line conf unconf
	line=$(grep '^nightly: ' "$out" | tail -n 1)
	conf=$(grep -c '^confirmed ' "$out")
	unconf=$(grep -c '^not confirmed ' "$out")
	printf '%-9s %-24s exit %d  %3d confirmed, %3d not confirmed  %4ds  %s\n' "$kind" "${1:+$2}" "$rc" \
		"$conf" "$unconf" $(($(date +%s) - t0)) "$line"
	return $rc
}
echo "# $(git rev-parse --short=12 HEAD) $config on $(hostname), $(date -u +%FT%TZ)"
night baseline
night baseline
for ((i = 1; i <= plain; i++)); do
	night plain || ((plain_failed++))
	if ((i % every == 0)); then
		kv=${injections[k++ % ${#injections[@]}]}
		((injected++))
		night injected --set "$kv"
		[[ $? == 1 ]] && ((injected_failed++))
	fi
done
echo "plain nights exiting non-zero: $plain_failed of $plain; injected nights exiting 1: $injected_failed of $injected"
