#!/usr/bin/env bash
# concurrent: replays into its own database: no run lock, no cgroup
# A trace cannot eat the machine or pass for what it is not: a replay has
# a memory budget and stops with the design, the line and the figure; a
# trace is read once, bounded, and must end with '# end' whatever its
# format; NUL bytes, a run of more than 4096 pages, operations after the
# end, empty and cut files are errors naming FILE:LINE. Nothing of a
# refused replay is recorded.
source "$(dirname "$0")/../lib.sh"
cd "$tmp"
db=$tmp/r.db
runs() { sqlite3 -batch "$db" "select count(*) from runs" 2>/dev/null || echo 0; }
# a 4,000-deep chain of forks, each child writing one page: avc-rc's
# chains grow as the square of the depth
{
	echo '# rmapbench-trace 2'
	echo 'mmap 1 100 1 rw'
	echo 'write 1 100'
	for ((i = 1; i < 4000; i++)); do echo "fork $i $((i + 1))"; echo "write $((i + 1)) 100"; done
	echo '# end: a chain'
} >chain.trace
expect 2 "over the memory budget" "$BIN" --db "$db" replay chain.trace --max-mib 160
grep -qE "chain.trace:[0-9]+: over the memory budget: [0-9]+ MiB resident after [0-9]+ operations, the budget 160 MiB \(--max-mib\) \(design [a-z-]+\): nothing recorded" "$tmp/err" ||
	fail "the budget's error lacks the line, the figure or the design: $(cat "$tmp/err")"
expect 2 "--max-mib 8: at least 16" "$BIN" --db "$db" replay chain.trace --max-mib 8
: >empty.trace
expect 2 "empty.trace: no operation in it" "$BIN" --db "$db" replay empty.trace
: | gzip >killed.trace.gz # what a killed recorder leaves
expect 2 "killed.trace.gz: no operation in it" "$BIN" --db "$db" replay killed.trace.gz
head -c 0 /dev/null >zero.gz
expect 2 "zero.gz: no operation in it" "$BIN" --db "$db" replay zero.gz
head -c $((1 << 20)) /dev/zero >nul.trace
expect 2 "nul.trace:1: a NUL byte" "$BIN" --db "$db" replay nul.trace
printf 'mmap 1 100 10 rw\nwrite 1 100\0 2\n# end\n' >nul2.trace
expect 2 "nul2.trace:2: a NUL byte" "$BIN" --db "$db" replay nul2.trace
for op in write read swapin walk; do
	printf 'mmap 1 100 5000 rw\n%s 1 100 4097\n# end\n' "$op" >len.trace
	expect 2 "len.trace:2: $op of 4097 pages: at most 4096 a line" "$BIN" --db "$db" replay len.trace
done
printf 'mmap 1 100 10 rw\n# end\nwrite 1 100\n' >after.trace
expect 2 "after.trace:3: an operation after the '# end' line (line 2)" "$BIN" --db "$db" replay after.trace
printf '# rmapbench-trace 1\nmmap 1 100 10 rw\nwrite 1 100\n' >noend.trace
expect 2 "noend.trace:3: truncated: no '# end' line last" "$BIN" --db "$db" replay noend.trace
printf 'mmap 1 100 10 rw\nwrite 1 100\n' >written.trace # format 1 without a header, too
expect 2 "written.trace:2: truncated: no '# end' line last" "$BIN" --db "$db" replay written.trace
# 64 MiB of newlines in a 64 KiB gzip: cut at the line cap, not replayed
yes '' | head -c $((17 << 20)) | gzip -9 >newlines.trace.gz
expect 2 "newlines.trace.gz:16777217: more than 16777216 lines" "$BIN" --db "$db" replay newlines.trace.gz
[[ $(runs) == 0 ]] || fail "a refused replay recorded $(runs) runs"
# a trace's text is data: a command line in its header that would run
# something in a shell, a gnuplot pipe or a terminal's title is stored
# and shown as text, never run
mark=$tmp/trace-ran
{
	echo '# rmapbench-trace 2'
	printf '# command: $(touch %s) `touch %s` | "<touch %s" \033]0;x\007\n' "$mark" "$mark" "$mark"
	echo 'mmap 1 100 4 rw'
	echo 'write 1 100 4'
	echo '# end: hostile'
} >hostile.trace
"$BIN" --db "$tmp/h.db" replay hostile.trace --name hostile >out 2>&1 || fail "the hostile trace was refused: $(cat out)"
[[ ! -e $mark ]] || fail "replaying a trace ran its header's command"
[[ $(sqlite3 -batch "$tmp/h.db" "select count(*) from point_attrs where key = 'trace_command' and value like '%touch%'") == 4 ]] ||
	fail "the header's command is not kept as text on each design's point"
grep -q $'\033' out && fail "the header's escape reached the terminal"
# the same operations, whole, replay and record on every design
printf 'mmap 1 100 10 rw\nwrite 1 100 4096\nfork 1 2\nwrite 2 100 3\n# end\n' >ok.trace
sed -i 's/4096/4/' ok.trace
"$BIN" --db "$db" replay ok.trace >out 2>&1 || fail "a whole trace was refused: $(cat out)"
[[ $(runs) == 4 ]] || fail "a whole trace recorded $(runs) runs, not 4"
echo "replay: within its budget, every bad trace refused by FILE:LINE, nothing recorded"
