# concurrent: the engine's fuzzers in-process
# The differential fuzzer and the known finding: with seed 2026 the random
# operations reach engine/findings/mremap-merge-unfaulted-prev after about
# 216,000 operations. By default that is counted and every machine restarts
# (exit 0, nothing new); with --known-as-faults it faults as it did before
# it was understood (exit 3). The plain build: 300,000 differential
# operations take half a minute, several under ASan.
. "$(dirname "$0")/../lib.sh"
fast=$top/build/rmapbench
"$fast" --db "$tmp/rb.db" engine fuzz --differential --ops 300000 --seed 2026 >"$tmp/f" ||
	fail "fuzz with the known finding restarted should exit 0: $(cat "$tmp/f")"
for v in legacy avc; do
	grep -q "^fuzz $v: .* 0 faults; known finding mremap-merge-unfaulted-prev reached 1 times" "$tmp/f" ||
		fail "$v did not count the known finding: $(cat "$tmp/f")"
done
grep -q "^fuzz modern: .* 0 faults$" "$tmp/f" || fail "modern: $(cat "$tmp/f")"
[[ $(sql "$tmp/rb.db" "select sum(value) from results where metric = 'known_findings'") == 3.0 ]] ||
	fail "known findings not recorded: $(sql "$tmp/rb.db" "select * from results where metric = 'known_findings'")"
"$fast" --db "$tmp/rb.db" engine fuzz --differential --ops 300000 --seed 2026 --known-as-faults --stop-at-fault \
	>"$tmp/g" 2>&1
rc=$?
[[ $rc == 3 ]] || fail "--known-as-faults: exit $rc, expected 3: $(grep '^fuzz' "$tmp/g")"
grep -q "^fuzz avc: .*(first: rmap_unreachable)" "$tmp/g" || fail "avc's fault: $(grep '^fuzz' "$tmp/g")"
exit 0
