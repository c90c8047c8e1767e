#!/usr/bin/env bash
# scripts/bench-record.sh: what recording and replaying cost here, written
# as a dated record docs/results/DATE-record-replay.md (a new file).
#   - record's cost: make -j2 of a small C project (clean each time) and a
#     bash loop of 1,000 subshells, each plain and under `rmapbench record`,
#     alternating, 5 times; the median ratio (issue 32 asks at most 3x)
#   - the same for a fork-per-connection server under its own benchmark:
#     PostgreSQL under pgbench -C (scripts/bench-record-server.sh)
#   - replay's speed: a trace of about a million operations (a bash loop
#     of 52,000 subshells, recorded) replayed on the four designs into a
#     database, its replay_s per design there
#   - bytes per simulated page at the trace's peak, per design
#   - the README's example: a Python Pool(8) recorded and replayed, its
#     table and figure (docs/results/DATE-replay-pool.png)
#   - the recorded aim7 of configs/replay-aim7.conf against the engine's
#     own run of it, VMAs per walk side by side
# A benchmark, not a test: it asserts nothing. Needs root (pagemap).
set -euo pipefail
cd "$(dirname "$0")/.."
make -s all >&2
D=$(mktemp -d /tmp/rmapbench-benchrec-XXXXXX)
trap 'rm -rf "$D"' EXIT
rev=$(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD || echo -dirty)
day=$(date -u +%F)
out=docs/results/$day-record-replay.md
[[ -e $out ]] && out=docs/results/$day-record-replay-$(date -u +%H%M%S).md
top=$PWD
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.6f\", $1 }"; }
mkdir -p "$D/proj"
for i in $(seq 1 8); do printf 'int f%d(int x) { return x * %d; }\n' "$i" "$i" >"$D/proj/f$i.c"; done
printf 'int f1(int); int main(void) { return f1(0); }\n' >"$D/proj/main.c"
printf 'OBJ = main.o %s\nprog: $(OBJ)\n\t$(CC) -o $@ $(OBJ)\n' "$(seq -f 'f%g.o' 1 8 | tr '\n' ' ')" >"$D/proj/Makefile"
declare -A cmd=(
	[make]="make -s -j2 -C $D/proj"
	[bash]="bash -c 'for i in \$(seq 1000); do (true); done'"
)
rows=""
for name in make bash; do
	ratios=() plain=() rec=()
	for k in 1 2 3 4 5; do
		make -s -C "$D/proj" clean >/dev/null 2>&1 || rm -f "$D/proj"/*.o "$D/proj/prog"
		s=$(now); eval "${cmd[$name]}" >/dev/null; e=$(now)
		p=$(calc "$e - $s")
		rm -f "$D/proj"/*.o "$D/proj/prog" "$D/$name.trace.gz"
		s=$(now); eval "build/rmapbench record --out $D/$name.trace.gz -- ${cmd[$name]}" >/dev/null 2>&1; e=$(now)
		r=$(calc "$e - $s")
		plain+=("$p") rec+=("$r") ratios+=("$(calc "$r / $p")")
	done
	med() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
	rows+=$(printf '| %s | %.3f s | %.3f s | %.2fx | %s |\n' "$name" "$(med "${plain[@]}")" "$(med "${rec[@]}")" \
		"$(med "${ratios[@]}")" "$(printf '%.2f ' "${ratios[@]}")")$'\n'
done
server=$(scripts/bench-record-server.sh 5)
# about a million operations of a real program: a bash loop of 52,000
# subshells, recorded
s=$(now)
build/rmapbench record --out "$D/million.trace.gz" -- bash -c 'for i in $(seq 52000); do (true); done' 2>"$D/million.rec"
e=$(now)
recorded_s=$(calc "$e - $s")
lines=$(zcat "$D/million.trace.gz" | grep -vc '^#')
/usr/bin/time -f '%M' -o "$D/rss" build/rmapbench --db "$D/r.db" replay "$D/million.trace.gz" --name million >"$D/replay.out" 2>&1
rss=$(cat "$D/rss")
replay=$(sqlite3 -batch "$D/r.db" "select r.variant, printf('%.2f', x.value) from results x join runs r on r.id = x.run_id
	where x.metric = 'replay_s' order by r.id" | sed 's/|/ /' | awk '{ printf "%s %s s, ", $1, $2 }')
bpp=$(sqlite3 -batch "$D/r.db" "select r.variant, printf('%.1f', x.value) from results x join runs r on r.id = x.run_id
	where x.metric = 'bytes_per_page' order by r.id" | sed 's/|/ /' | awk '{ printf "%s %s, ", $1, $2 }')
# the README's example
pool="import multiprocessing as m; p = m.Pool(8); print(sum(p.map(abs, range(1000)))); p.close(); p.join()"
build/rmapbench record --out "$D/pool.trace.gz" -- python3 -c "$pool" >/dev/null 2>"$D/pool.rec"
build/rmapbench --db "$D/p.db" replay "$D/pool.trace.gz" --name pool >"$D/pool.out" 2>&1
fig=$(sed -n 's/^figure: //p' "$D/pool.out")
png=docs/results/$day-replay-pool.png
[[ -e $png ]] && png=docs/results/$day-replay-pool-$(date -u +%H%M%S).png
cp "$fig" "$png"
# aim7, every user COWing its region: recorded, and on target engine
keys=$(sed -n 's/^\(jobs_per_user\|seed\|mix\|shared_kib\|cow_fraction\|cow_pages\|compute_iters\) = \(.*\)/\1=\2/p' \
	configs/replay-aim7.conf | tr '\n' ' ')
# shellcheck disable=SC2086 # keys are words
build/rmapbench record --out "$D/aim7.trace.gz" -- build/rmapbench-load aim7 users=64 $keys >/dev/null 2>"$D/aim7.rec"
build/rmapbench --db "$D/a.db" replay "$D/aim7.trace.gz" --name aim7 >"$D/aim7.out" 2>&1
for v in legacy avc-rc avc modern; do
	build/rmapbench --db "$D/e.db" run configs/replay-aim7.conf --set variant=$v >/dev/null 2>&1
done
side=$(sqlite3 -batch "$D/a.db" "attach '$D/e.db' as e;
	select r.variant, printf('%.2f', x.value), printf('%.2f', y.value),
	       printf('%.2f', (select v.value from e.results v join e.runs w on w.id = v.run_id
	                       where w.variant = r.variant and v.metric = 'page_referenced_vmas_per_walk'))
	from runs r join results x on x.run_id = r.id and x.metric = 'rmap_vmas_per_walk'
	join results y on y.run_id = r.id and y.metric = 'page_referenced_vmas_per_walk' order by r.id" |
	awk -F'|' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }')
{
	echo "# Record and replay: what they cost ($day)"
	echo
	echo "- revision: $rev"
	echo "- machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -r)"
	echo "- command: \`scripts/bench-record.sh\`"
	echo
	echo "## Recording's cost (median of 5, plain and recorded alternating)"
	echo
	echo "| program | plain | recorded | ratio | the five ratios |"
	echo "|---|---|---|---|---|"
	printf '%s' "$rows"
	echo
	echo "make: \`make -s -j2\` of 9 C files, clean each time; bash: \`bash -c 'for i in \$(seq 1000); do (true); done'\`."
	echo
	echo "$server"
	echo
	echo "## Replay's speed"
	echo
	echo "A trace of $lines operations: \`bash -c 'for i in \$(seq 52000); do (true); done'\`, recorded in"
	printf '%.1f s (%s).\n' "$recorded_s" "$(tail -n 1 "$D/million.rec" | sed 's/^rmapbench-record: [^:]*: //')"
	echo "\`rmapbench replay\` on the four designs, a first pass to find the peak then one pass each:"
	echo "replay_s as recorded in the database: ${replay%, }. The whole command's peak RSS: $((rss / 1024)) MiB."
	echo
	echo "Bytes per simulated page at the peak (struct page and the pte table's slots): ${bpp%, }."
	echo
	echo '```'
	cat "$D/replay.out"
	echo '```'
	echo
	echo "## The README's example: a Pool(8)"
	echo
	echo "\`rmapbench record --out pool.trace.gz -- python3 -c '$pool'\`, then \`rmapbench replay pool.trace.gz\`"
	echo "($(tail -n 1 "$D/pool.rec" | sed 's/^rmapbench-record: [^:]*: //')); the figure: [$(basename "$png")]($(basename "$png"))."
	echo
	echo '```'
	grep -v '^figure:\|^runs ' "$D/pool.out"
	echo '```'
	echo
	echo "## aim7 recorded, and on target engine"
	echo
	echo "\`build/rmapbench-load aim7 users=64 $keys\` recorded and replayed, beside"
	echo "\`rmapbench run configs/replay-aim7.conf --set variant=V\` (the same workload and keys on the"
	echo "engine, its census at the most pages mapped, \`sim_census = 2\`): VMAs a walk visits at the peak."
	echo
	echo "| design | replay: rmap walk | replay: page_referenced | engine target: page_referenced |"
	echo "|---|---|---|---|"
	echo "$side"
	echo
	echo '```'
	grep -v '^figure:\|^runs ' "$D/aim7.out"
	echo '```'
} >"$out"
echo "$out"
cat "$out"
