#!/usr/bin/env bash
# rmapbench record and replay: four real programs recorded (make -j2 of a
# small C project, a Python multiprocessing pool of 8, a bash loop of
# 1,000 subshells, the aim7 load) and each replayed on the four designs;
# the recorded aim7 against the engine's own run of the same workload
# (configs/replay-aim7.conf): 2.6.33 walks O(users), the chain designs
# about 2, in both; two replays compared; and the bad inputs, each one
# line naming FILE:LINE, nothing recorded lost. Counts, never durations.
. "$(dirname "$0")/../lib.sh"
export RMAPBENCH_RECORD=${RMAPBENCH_RECORD:-$top/build/asan/rmapbench-record}
db=$tmp/r.db
cd "$tmp"
# the recorder needs page frame numbers from /proc/PID/pagemap (root)
"$BIN" record --out probe.trace -- true 2>"$tmp/probe.err" ||
	{ grep -q "frame numbers" "$tmp/probe.err" && skip "record: $(cat "$tmp/probe.err")"; fail "record true: $(cat "$tmp/probe.err")"; }
head -n 1 probe.trace.gz 2>/dev/null | grep -q . && fail "a .gz name was not asked for"
zcat probe.trace | grep -q '^# end: 1 processes' || fail "the trace of true: $(zcat probe.trace | tail -n 2)"

runs() { sql "$db" "select count(*) from runs"; }
record() { # record NAME CMD...: NAME.trace.gz, and its replay on the four designs
	local name=$1
	shift
	"$BIN" record --out "$name.trace.gz" -- "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		fail "record $name exited $?: $(tail -n 3 "$tmp/$name.err")"
	zcat "$name.trace.gz" >"$name.trace" || fail "$name.trace.gz is not gzip"
	for h in '# rmapbench-trace 2' '# command: ' '# kernel: Linux ' "# page_size: $(getconf PAGESIZE)" \
		'# cannot see: file-backed and shared memory, huge pages' '# end: '; do
		grep -q "^$h" "$name.trace" || fail "$name: no '$h' in the header"
	done
	local before
	before=$(runs 2>/dev/null || echo 0)
	"$BIN" --db "$db" replay "$name.trace.gz" >"$tmp/$name.replay" 2>&1 || fail "replay $name: $(tail -n 3 "$tmp/$name.replay")"
	[[ $(runs) == $((before + 4)) ]] || fail "replay $name recorded $(($(runs) - before)) runs, not one per design"
	for v in legacy avc-rc avc modern; do
		grep -q "^$v " "$tmp/$name.replay" || fail "replay $name: no $v row"
	done
	[[ $(sql "$db" "select count(distinct workload) from points where workload = 'replay:$name'") == 1 ]] ||
		fail "replay $name: no workload replay:$name"
	echo "$name: $(grep -c '' "$name.trace") lines, $(tail -n 1 "$name.trace")"
}
ops() { awk -v o="$1" '$1 == o' "$2.trace" | wc -l; }

# 1. the four programs
mkdir -p proj
for i in 1 2 3 4; do printf 'int f%d(int x) { return x * %d; }\n' "$i" "$i" >"proj/f$i.c"; done
printf 'int f1(int); int main(void) { return f1(0); }\n' >proj/main.c
printf 'OBJ = main.o f1.o f2.o f3.o f4.o\nprog: $(OBJ)\n\t$(CC) -o $@ $(OBJ)\n' >proj/Makefile
record make make -j2 -C proj
[[ -x proj/prog ]] || fail "make under the recorder did not build proj/prog"
(($(ops spawn make) + $(ops exec make) >= 6)) || fail "make: $(ops spawn make) spawns and $(ops exec make) execs for 6 compiler runs"
record python python3 -c 'from multiprocessing import Pool
with Pool(8) as p: print(sum(p.map(abs, range(1000))))'
grep -q 499500 "$tmp/python.out" || fail "the pool's answer went missing: $(cat "$tmp/python.out")"
(($(ops fork python) >= 8)) || fail "python: $(ops fork python) forks for a pool of 8"
record bash bash -c 'for i in $(seq 1000); do (true); done'
(($(ops fork bash) >= 1000)) || fail "bash: $(ops fork bash) forks for 1,000 subshells"
((${RMAPBENCH_RECORD_MAX_NUM:-0} == 0)) # process numbers are reused: never past the most alive at once + 1
max=$(awk '$1 == "fork" && $3 > m { m = $3 } END { print m + 0 }' bash.trace)
((max <= 4)) || fail "bash: process numbers up to $max for at most 2 alive at once"
record aim7 "$RMAPBENCH_LOAD" aim7 users=64 jobs_per_user=5
(($(ops fork aim7) >= 64)) || fail "aim7: $(ops fork aim7) forks for 64 users"

# the engine's invariants hold on real histories: the checker after every
# operation, no fault on the designs without known bugs (avc-rc's are
# 2010's: a real program may reach them, and that is said, not failed).
# Not aim7: the checker after each of its operations over 65 processes'
# pages takes minutes under ASan.
for name in make python bash; do
	"$BIN" replay "$name.trace.gz" --check --no-db >"$tmp/$name.check" 2>&1 ||
		fail "replay --check $name exited $?: $(grep -v '^ ' "$tmp/$name.check" | tail -n 4)"
	awk '$1 ~ /^(legacy|avc|modern)$/ && $NF != 0 { bad = 1 } END { exit bad }' "$tmp/$name.check" ||
		fail "replay --check $name: faults: $(cat "$tmp/$name.check")"
	echo "$name --check: $(awk '$1 == "avc-rc" { print "avc-rc " $NF " faults" }' "$tmp/$name.check"), none elsewhere"
done

# 2. aim7, every user COWing its region, recorded and on target engine
keys=$(sed -n 's/^\(jobs_per_user\|seed\|mix\|shared_kib\|cow_fraction\|cow_pages\|compute_iters\) = \(.*\)/\1=\2/p' \
	"$top/configs/replay-aim7.conf" | tr '\n' ' ')
# shellcheck disable=SC2086 # keys are words
record aim7cow "$RMAPBENCH_LOAD" aim7 users=64 $keys
for v in legacy avc; do
	(cd "$top" && "$BIN" --db "$tmp/e.db" run configs/replay-aim7.conf --set variant=$v >"$tmp/e.out" 2>&1) ||
		fail "replay-aim7.conf on the engine, $v: $(tail -n 3 "$tmp/e.out")"
done
rv() { sql "$db" "select round(x.value, 2) from results x join runs r on r.id = x.run_id join points p on p.id = x.point_id
	where p.workload = 'replay:aim7cow' and r.variant = '$1' and x.metric = 'page_referenced_vmas_per_walk'"; }
ev() { sql "$tmp/e.db" "select round(x.value, 2) from results x join runs r on r.id = x.run_id
	where r.variant = '$1' and x.metric = 'page_referenced_vmas_per_walk'"; }
echo "aim7 COW, page_referenced VMAs per walk at the peak: replay legacy $(rv legacy), avc $(rv avc); engine legacy $(ev legacy), avc $(ev avc)"
for side in rv ev; do
	awk -v l="$($side legacy)" -v a="$($side avc)" 'BEGIN { exit !(l >= 16 && a > 0 && a <= 4) }' ||
		fail "$side: legacy $($side legacy) is not O(users) or avc $($side avc) not about 2"
done

# a replay run's report: its counts, not figures against users
"$BIN" --db "$db" report 1 >"$tmp/rep.out" 2>&1 || fail "report of a replay run: $(tail -n 2 "$tmp/rep.out")"
html=$(sed -n 's/^report: //p' "$tmp/rep.out")
grep -q "The replay's counts" "$html" && grep -q "rmap_vmas_per_walk" "$html" && ! grep -q "jobs_per_min.svg" "$html" ||
	fail "the report of a replay run does not show its counts: $html"

# 3. two replays compared
"$BIN" --db "$db" compare 1 4 >"$tmp/cmp.out" 2>&1
(($? <= 1)) || fail "compare of two replays: $(tail -n 3 "$tmp/cmp.out")"
grep -q "rmap_vmas_per_walk" "$tmp/cmp.out" || fail "compare of two replays has no rmap_vmas_per_walk row"
# two recordings of one program meet in compare, whatever their process counts
"$BIN" record --out bash2.trace.gz -- bash -c 'for i in $(seq 100); do (true); done' 2>/dev/null || fail "record bash2"
"$BIN" --db "$db" replay bash2.trace.gz --name bash --variant modern >/dev/null 2>&1 || fail "replay bash2"
a=$(sql "$db" "select r.id from runs r join points p on p.run_id = r.id where p.workload = 'replay:bash' and r.variant = 'modern' order by r.id limit 1")
b=$(sql "$db" "select max(id) from runs")
"$BIN" --db "$db" compare "$a" "$b" >"$tmp/cmp2.out" 2>&1
(($? <= 1)) && grep -q "replay:bash" "$tmp/cmp2.out" && grep -q "0 only in A, 0 only in B" "$tmp/cmp2.out" ||
	fail "two recordings of bash did not meet in compare: $(head -n 20 "$tmp/cmp2.out")"

# 4. bad traces: one line naming FILE:LINE, nothing recorded
n0=$(runs)
sed 's/^# page_size: .*/# page_size: 65536/' bash.trace >other.trace
expect 2 "other.trace:4: recorded with 65536-byte pages" "$BIN" --db "$db" replay other.trace
head -c $(($(stat -c %s bash.trace.gz) / 2)) bash.trace.gz >cut.trace.gz
expect 2 "cut.trace.gz: truncated" "$BIN" --db "$db" replay cut.trace.gz
head -n 200 bash.trace >cut.trace
expect 2 "cut.trace:200: truncated: no '# end' line" "$BIN" --db "$db" replay cut.trace
{ head -n 9 bash.trace; echo "write 9 100 2"; echo "# end: cut by hand"; } >early.trace
expect 2 "early.trace:10: write: process 9 does not exist" "$BIN" --db "$db" replay early.trace
printf '# rmapbench-trace 2\nmmap 1 100 1000000000 rw\n# end:\n' >huge.trace
expect 2 "huge.trace:2: mmap of 1000000000 pages: at most 67108864" "$BIN" --db "$db" replay huge.trace
printf '# rmapbench-trace 3\n' >newer.trace
expect 2 "newer.trace:1: trace format 3" "$BIN" --db "$db" replay newer.trace
[[ $(runs) == "$n0" ]] || fail "a refused trace recorded a run"
# and the recorder's: a trace is never overwritten, nor written through a link
cp bash.trace.gz keep.gz
expect 2 "keep.gz: File exists (a trace is never overwritten" "$BIN" record --out keep.gz -- true
cmp -s bash.trace.gz keep.gz || fail "an existing trace was changed"
ln -s /tmp/rmapbench-nowhere link.gz
expect 2 "link.gz:" "$BIN" record --out link.gz -- true
[[ ! -e /tmp/rmapbench-nowhere ]] || fail "record wrote through a link"
expect 2 "rmapbench-no-such-command: No such file or directory" "$BIN" record --out none.gz -- rmapbench-no-such-command
[[ ! -e none.gz ]] || fail "a command that could not start left a trace"
echo "record and replay: four programs on four designs, the bad inputs refused"
