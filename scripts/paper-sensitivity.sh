#!/usr/bin/env bash
# The paper profile's sensitivity table (docs/results/*-paper-sensitivity.md,
# linked from docs/paper.md): each machine parameter of the 2010
# profile halved and doubled, and the users' two sizes (the memory each
# COW-writes, the jobs each runs), legacy's and avc's crossovers and their
# ratio.
#   scripts/paper-sensitivity.sh [DB [K/N]]   (default: a scratch database)
# K/N runs every N-th row from the K-th (the header with K = 0): N copies
# side by side, each with a database of its own holding the calibration,
# run the table in about an N-th of the time, and their rows taken in
# turn are the table.
# Each line is `rmapbench paper --designs legacy,avc --set KEY=VALUE --json`
# ($RMAPBENCH: another build's binary; its errors go to DB.log).
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:-$(mktemp -d)/sensitivity.db}
shard=${2:-0/1}
[[ $shard =~ ^([0-9]+)/([1-9][0-9]*)$ && ${BASH_REMATCH[1]} -lt ${BASH_REMATCH[2]} ]] ||
	{ echo "paper-sensitivity.sh: '$shard' is not K/N with K < N" >&2; exit 2; }
shard_k=${BASH_REMATCH[1]} shard_n=${BASH_REMATCH[2]} nrow=0
bin=${RMAPBENCH:-build/rmapbench}
cfg=configs/paper-2010.conf
value() { sed -n "s/^$1 *= *//p" "$cfg"; }
row() { # label, then --set arguments
	local label=$1 j l a
	shift
	nrow=$((nrow + 1))
	(((nrow - 1) % shard_n == shard_k)) || return 0
	j=$("$bin" --db "$db" paper --designs legacy,avc --json "$@" 2>>"$db.log") || j='{}'
	l=$(sqlite3 :memory: "select ifnull(json_extract('$j', '\$.legacy.crossover_users'), 'not reached')")
	a=$(sqlite3 :memory: "select ifnull(json_extract('$j', '\$.avc.crossover_users'), 'not reached')")
	r=$(awk -v l="$l" -v a="$a" 'BEGIN { if (l + 0 > 0 && a + 0 > 0) printf "%.2f", l / a; else print "-" }')
	echo "| $label | $l | $a | $r |"
}
if ((shard_k == 0)); then
	echo "| change | legacy | avc | legacy/avc |"
	echo "| --- | --- | --- | --- |"
fi
row "none (the profile)"
for k in sim_cpus sim_ram_mib sim_dma32_mib sim_swap_mbps sim_swap_latency_ms sim_cache_mbps sim_proc_kib sim_swappiness sim_walk_scale \
	shared_kib jobs_per_user; do
	v=$(value "$k")
	[[ $k == sim_walk_scale ]] && v=1 # the measured walk costs, halved and doubled
	[[ -n $v ]] || continue
	for f in 0.5 2; do
		# counts stay whole (97 jobs halved is 49)
		n=$(awk -v v="$v" -v f="$f" -v whole="$([[ $k == jobs_per_user || $k == sim_cpus ]] && echo 1)" \
			'BEGIN { x = v * f; if (whole) x = int(x + 0.5); if (x == int(x)) printf "%d", x; else printf "%g", x }')
		[[ $k == sim_swappiness && $n -gt 100 ]] && n=100 # its range ends there
		[[ $k == sim_dma32_mib && $n -gt 4096 ]] && n=4096 # and DMA32 at 4 GiB
		row "$k $v -> $n" --set "$k=$n"
	done
done
row "sim_dma32_mib 3072 -> 0 (one zone)" --set sim_dma32_mib=0
