#!/usr/bin/env bash
# scripts/record-timings.sh [NAME...]: what the README's commands take on
# this machine, measured now on a fresh database, written as a dated record
# docs/results/DATE-timings.md (a new file beside the old ones, never an
# edit of them). NAME picks some of the commands below; none: all of them.
# Needs root for the points' cgroups and swap, as the commands do.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A cmd=(
	[main]="./run.sh --db \$D/main.db"
	[aim7-10k]="./run.sh --db \$D/main.db run configs/aim7-10k.conf"
	[bench]="./run.sh --db \$D/main.db bench"
	[ci-night-1]="./run.sh --db \$D/night.db nightly --config configs/ci.conf"
	[ci-night-2]="./run.sh --db \$D/night.db nightly --config configs/ci.conf"
	[paper]="./run.sh --db \$D/paper.db paper"
	[paper-host]="./run.sh --db \$D/main.db run configs/paper-2010-host.conf"
)
order=(main aim7-10k bench ci-night-1 ci-night-2 paper paper-host)
(($#)) && order=("$@")
for n in "${order[@]}"; do
	[[ -n ${cmd[$n]+x} ]] || { echo "record-timings: unknown NAME '$n' (${!cmd[*]})" >&2; exit 2; }
done
make -s all >&2
D=$(mktemp -d /tmp/rmapbench-timings-XXXXXX)
trap 'rm -rf "$D"' EXIT
rev=$(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD || echo -dirty)
day=$(date -u +%F)
out=docs/results/$day-timings.md
[[ -e $out ]] && out=docs/results/$day-timings-$(date -u +%H%M%S).md
rows=""
for n in "${order[@]}"; do
	c=${cmd[$n]//\$D/$D}
	echo "record-timings: $n: $c" >&2
	s=$(date +%s.%N)
	set +e
	bash -c "$c" >"$D/$n.out" 2>"$D/$n.err"
	rc=$?
	set -e
	e=$(date +%s.%N)
	last=$(grep -v '^$' "$D/$n.out" | tail -n 1 | tr '|' '/' | cut -c1-100)
	rows+="| \`${cmd[$n]//\$D\//D/}\` | $(printf '%.0f' "$(echo "$e - $s" | bc)") s | $rc | $last |"$'\n'
done
{
	echo "# What the README's commands take here, $day"
	echo
	echo "- **Revision**: $rev"
	echo "- **Machine**: $(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed "s/^ //"), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -r), $(. /etc/os-release && echo "$PRETTY_NAME")"
	echo "- **Command**: \`scripts/record-timings.sh ${*:-}\` (each command on a fresh database D, one after another, nothing else running unless said)"
	echo "- **Load beside it**: $(uptime | sed 's/.*load average/load average/')"
	echo
	echo "| command | wall | exit | its last line |"
	echo "| --- | --- | --- | --- |"
	printf '%s' "$rows"
} >"$out"
echo "$out"
