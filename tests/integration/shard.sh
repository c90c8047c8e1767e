#!/usr/bin/env bash
# A suite split across a CI matrix: --dry-run prints the plan, the shards'
# plans partition it, each shard runs into its own database, and db merge
# joins them into the whole matrix, once.
. "$(dirname "$0")/../lib.sh"
printf 'name = tiny\nworkloads = aim7 forkstorm\nusers = 1 2 3\nrepetitions = 2\njobs_per_user = 1\nshared_mib = 1\nduration_s = 0\nseed = %s\ncollectors = cpu\n' \
	"$marker" >"$tmp/t.conf"
"$BIN" run "$tmp/t.conf" --dry-run >"$tmp/all" 2>&1 || fail "dry run: $(cat "$tmp/all")"
[[ $(grep -vc '^#' "$tmp/all") == 12 ]] || fail "the plan is not 12 points: $(cat "$tmp/all")"
: >"$tmp/union"
for i in 1 2 3; do
	"$BIN" run "$tmp/t.conf" --dry-run --shard "$i/3" | grep -v '^#' >>"$tmp/union"
done
diff <(grep -v '^#' "$tmp/all" | sort) <(sort "$tmp/union") >/dev/null || fail "the shards do not partition the plan"
for i in 1 2; do
	"$BIN" --db "$tmp/s$i/rmapbench.db" --shard "$i/2" run "$tmp/t.conf" >"$tmp/out$i" 2>&1 || fail "shard $i: $(tail -n 3 "$tmp/out$i")"
done
"$BIN" --db "$tmp/s1/rmapbench.db" db merge "$tmp/s2/rmapbench.db" >/dev/null 2>&1 || fail "merging the shards"
[[ $(sql "$tmp/s1/rmapbench.db" "SELECT count(*) FROM points") == 12 ]] || fail "the merged shards are not the whole matrix"
[[ $(sql "$tmp/s1/rmapbench.db" "SELECT count(DISTINCT seq) FROM points") == 12 ]] || fail "a point ran twice"
expect 2 "--shard 3/2: expected i/n" "$BIN" --shard 3/2 run "$tmp/t.conf"
echo "shards partition the plan and merge into the whole matrix"
