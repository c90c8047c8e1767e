# concurrent: the engine's fuzzer in-process
# The fuzzer hunting one fault kind: it finds avc-rc's dangling anon_vma
# (the 2.6.34-rc oops) from random operations, without the scenario's
# sequence; its trace replays to the same fault on avc-rc and is clean on
# the designs without the bug; a fixed design hunted in vain exits 0.
. "$(dirname "$0")/../lib.sh"
db=$tmp/h.db
e() { "$BIN" --db "$db" engine "$@"; }
e fuzz --variant avc-rc --until dangling_anon_vma --ops 200000 --seed 1 --trace-out "$tmp/oops.trace" >"$tmp/o"
rc=$?
[[ $rc == 3 ]] || fail "hunting avc-rc exited $rc, expected 3: $(cat "$tmp/o")"
grep -q "^fuzz avc-rc: seed 1, hunting dangling_anon_vma: found after [0-9]* operations" "$tmp/o" || fail "$(cat "$tmp/o")"
head -1 "$tmp/oops.trace" | grep -q "^# avc-rc: fault dangling_anon_vma after" || fail "trace header: $(head -2 "$tmp/oops.trace")"
grep -q "^reclaim\|^swapin" "$tmp/oops.trace" || fail "the trace has no walk: $(cat "$tmp/oops.trace")"
e replay "$tmp/oops.trace" --variant avc-rc >"$tmp/r"
[[ $? == 3 ]] || fail "the hunted trace does not fault on replay: $(cat "$tmp/r")"
grep -q "FAULT dangling_anon_vma" "$tmp/r" || fail "replay found another fault: $(cat "$tmp/r")"
for v in legacy avc modern; do
	e replay "$tmp/oops.trace" --variant $v >"$tmp/r" || fail "the trace faults on $v: $(cat "$tmp/r")"
done
e fuzz --variant avc --until dangling_anon_vma --ops 20000 --seed 1 >"$tmp/o" || fail "hunting on avc: $(cat "$tmp/o")"
grep -q "hunting dangling_anon_vma: not found after 20000 operations .* 0 faults of other kinds" "$tmp/o" || fail "$(cat "$tmp/o")"
[[ $(sqlite3 "$db" "select count(*) from results r join runs u on u.id = r.run_id where u.variant = 'avc-rc' and r.metric = 'other_faults'") == 1 ]] || fail "the hunt is not recorded"
e fuzz --variant avc --until nosuch 2>"$tmp/err"
[[ $? == 2 ]] || fail "an unknown kind did not exit 2"
grep -q -- "--until nosuch: no such fault kind" "$tmp/err" && grep -q "^  dangling_anon_vma " "$tmp/err" || fail "$(cat "$tmp/err")"
e fuzz --differential --until leak 2>"$tmp/err"
[[ $? == 2 ]] || fail "--until with --differential did not exit 2"
exit 0
