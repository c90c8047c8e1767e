#!/usr/bin/env bash
# scripts/bench-record-server.sh [RUNS]: what recording costs a
# fork-per-connection server under its own benchmark: PostgreSQL 15
# (Debian's postgresql), its postmaster forking a backend for every
# connection, driven by pgbench -C (a new connection per transaction:
# 4 clients x 800 transactions). Plain and under `rmapbench record`,
# alternating, RUNS times each (default 5), after one warm-up of each;
# the time is pgbench's wall time, the server started before and
# stopped after it. Prints a Markdown section: the median ratio and
# every figure. A benchmark, not a test: it asserts nothing. Root (the
# recorder reads frame numbers); the server runs as user postgres.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -x $pgbin/postgres ]] && command -v pgbench >/dev/null ||
	{ echo "bench-record-server.sh: PostgreSQL is missing (scripts/deps.sh --bench installs postgresql)" >&2; exit 2; }
id postgres >/dev/null 2>&1 || { echo "bench-record-server.sh: no user postgres" >&2; exit 2; }
D=$(mktemp -d /tmp/rmapbench-pg-XXXXXX)
chmod 755 "$D"
chown postgres: "$D"
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null
	[[ -f $D/data/postmaster.pid ]] && kill -KILL "$(head -n 1 "$D/data/postmaster.pid")" 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
opts=(-D "$D/data" -k "$D" -c listen_addresses= -p 5499 -c max_connections=20)
as_pg "$pgbin/initdb" -D "$D/data" -A trust >/dev/null
as_pg "$pgbin/pg_ctl" -D "$D/data" -o "${opts[*]:2}" -w start >/dev/null
pgbench -q -i -h "$D" -p 5499 -U postgres postgres >/dev/null 2>&1
as_pg "$pgbin/pg_ctl" -D "$D/data" -w stop >/dev/null
now() { date +%s.%N; }

# one MODE: the server plain or recorded, pgbench against it; its seconds
one() {
	local mode=$1 s e
	rm -f "$D/trace.gz"
	if [[ $mode == record ]]; then
		build/rmapbench-record --out "$D/trace.gz" -- setpriv --reuid=postgres --regid=postgres --init-groups \
			"$pgbin/postgres" "${opts[@]}" >"$D/server.log" 2>"$D/record.err" &
	else
		as_pg "$pgbin/postgres" "${opts[@]}" >"$D/server.log" 2>&1 &
	fi
	pid=$!
	for _ in $(seq 300); do pg_isready -q -h "$D" -p 5499 && break; sleep 0.1; done
	s=$(now)
	pgbench -n -C -c 4 -j 2 -t 800 -h "$D" -p 5499 -U postgres postgres >"$D/pgbench.out" 2>&1
	e=$(now)
	kill -INT "$(head -n 1 "$D/data/postmaster.pid")"
	wait "$pid" || true
	pid=
	grep -q 'number of transactions actually processed: 3200/3200' "$D/pgbench.out" ||
		{ echo "bench-record-server.sh: pgbench did not finish: $(tail -n 3 "$D/pgbench.out")" >&2; exit 1; }
	awk "BEGIN { printf \"%.3f\", $e - $s }"
}
one plain >/dev/null
one record >/dev/null
plain=() rec=() ratios=()
for ((k = 0; k < runs; k++)); do
	p=$(one plain)
	r=$(one record)
	plain+=("$p") rec+=("$r") ratios+=("$(awk "BEGIN { printf \"%.3f\", $r / $p }")")
	last=$(tail -n 1 "$D/record.err" | sed 's/^rmapbench-record: [^:]*: //')
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "## A fork-per-connection server: PostgreSQL under pgbench -C"
echo
echo "\`scripts/bench-record-server.sh $runs\`: $("$pgbin/postgres" --version), \`pgbench -n -C -c 4 -j 2 -t 800\`"
echo "(3,200 transactions, a backend forked for each connection), pgbench's wall time; the server plain,"
echo "then under \`rmapbench record\`, alternating, $runs times after one warm-up of each."
echo
echo "| plain (median) | recorded (median) | ratio (median) | the ratios |"
echo "|---|---|---|---|"
printf '| %.2f s | %.2f s | %.2fx | %s |\n' "$(med "${plain[@]}")" "$(med "${rec[@]}")" "$(med "${ratios[@]}")" \
	"$(printf '%.2f ' "${ratios[@]}")"
echo
echo "The last recording: $last."
