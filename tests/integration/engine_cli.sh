# concurrent: engine commands into its own databases: no run lock, no cgroup
# The engine from the command line: exit codes (0 clean, 3 fault, 2 usage),
# --json, fault reports, replay of a trace file, and the engine-target runs
# it records.
. "$(dirname "$0")/../lib.sh"
db=$tmp/e.db
e() { "$BIN" --db "$db" engine "$@"; }
e scenario --list | grep -q "^dangling-anon-vma .*ea90002b0fa" || fail "scenario --list"
for v in legacy avc modern; do
	e scenario merge-reuse --variant $v >"$tmp/o" || fail "merge-reuse on $v exited $?: $(cat "$tmp/o")"
done
e scenario merge-reuse --variant avc-rc >"$tmp/o"
[[ $? == 3 ]] || fail "merge-reuse on avc-rc did not exit 3"
grep -q "FAULT rmap_unreachable" "$tmp/o" || fail "no fault report: $(cat "$tmp/o")"
grep -q "the operations that led there" "$tmp/o" || fail "the report lacks the operations"
e scenario dangling-anon-vma --variant avc-rc --json >"$tmp/j"
[[ $? == 3 ]] || fail "json scenario exit"
[[ $(sqlite3 :memory: "select json_extract(readfile('$tmp/j'), '\$.faults[0].kind') is not null, json_extract(readfile('$tmp/j'), '\$.expected_kind')") == "1|dangling_anon_vma" ]] || fail "scenario json: $(cat "$tmp/j")"
# item 2 from the command line: every scenario exits 3 with its bug's kind on
# avc-rc, and 0 on the designs without the bug (these runs are not recorded)
for sc in dangling-anon-vma merge-reuse mprotect-wrong-chain chain-order; do
	for v in legacy avc-rc avc modern; do
		"$BIN" --db "$tmp/s.db" engine scenario $sc --variant $v --json >"$tmp/s"
		rc=$?
		found=$(sqlite3 :memory: "select json_extract(readfile('$tmp/s'), '\$.expected_found')")
		if [[ $v == avc-rc ]]; then
			[[ $rc == 3 && $found == 1 ]] || fail "$sc on avc-rc: exit $rc, its kind found '$found'"
		else
			[[ $rc == 0 && $found == 0 ]] || fail "$sc on $v: exit $rc: $(cat "$tmp/s")"
		fi
	done
done
e walkcost --variant legacy --children 20 --pages 10 --json >"$tmp/w" || fail "walkcost"
for k in rmap_walks rmap_vmas_visited rmap_vmas_per_walk wall_s peak_rss_bytes page_referenced_vmas_per_walk; do
	[[ $(sqlite3 :memory: "select json_type(readfile('$tmp/w'), '\$.$k')") == real || $(sqlite3 :memory: "select json_type(readfile('$tmp/w'), '\$.$k')") == integer ]] || fail "walkcost json lacks $k: $(cat "$tmp/w")"
done
[[ $(sqlite3 :memory: "select json_extract(readfile('$tmp/w'), '\$.rmap_vmas_per_walk') = 21") == 1 ]] || fail "legacy walk is not N+1: $(cat "$tmp/w")"
e walkcost --variant avc --children 20 --pages 10 --json >"$tmp/w" || fail "walkcost avc"
[[ $(sqlite3 :memory: "select json_extract(readfile('$tmp/w'), '\$.rmap_vmas_per_walk') <= 2") == 1 ]] || fail "avc walk is above 2: $(cat "$tmp/w")"
# a sweep: a run per design, a point per N, and the figure of both walks
mkdir -p "$tmp/sweep"
"$BIN" --db "$tmp/sweep/w.db" engine walkcost --variant all --children 2,20 --pages 5 >"$tmp/o" 2>"$tmp/err" ||
	fail "walkcost sweep: $(cat "$tmp/o" "$tmp/err")"
[[ $(sqlite3 "$tmp/sweep/w.db" "select count(distinct p.run_id), count(*) from points p") == "4|8" ]] || fail "the sweep is not 4 runs of 2 points"
[[ $(sqlite3 "$tmp/sweep/w.db" "select r.value from results r join points p on p.id = r.point_id join runs u on u.id = r.run_id where u.variant = 'legacy' and p.users = 20 and r.metric = 'rmap_vmas_per_walk'") == 21.0 ]] || fail "legacy at N=20 is not 21"
if command -v gnuplot >/dev/null; then
	grep -q "^figure: .*/w.db-walkcost-1-4/walkcost-rmap_vmas_per_walk.png" "$tmp/o" || fail "no sweep figure: $(cat "$tmp/o" "$tmp/err")"
	[[ -s $tmp/sweep/w.db-walkcost-1-4/walkcost-page_referenced_vmas_per_walk.png ]] || fail "no page_referenced figure"
fi
e walkcost --variant avc --children 2,,x --pages 2 2>"$tmp/err"; [[ $? == 2 ]] || fail "a bad --children list did not exit 2"
grep -q -- "--children x: expected an integer" "$tmp/err" || fail "bad list error: $(cat "$tmp/err")"
printf 'mmap 1 10 2 rw\nwrite 1 10 2\nfork 1 2\nwrite 2 10\nreclaim 1 10 2\nread 1 10 2\nexit 2\n' >"$tmp/ok.trace"
e replay "$tmp/ok.trace" --variant modern >"$tmp/o" || fail "a clean trace did not exit 0: $(cat "$tmp/o")"
printf 'mmap 1 10 2 rw\nteleport 1 2\n' >"$tmp/bad.trace"
e replay "$tmp/bad.trace" --variant modern 2>"$tmp/err"
[[ $? == 2 ]] || fail "a malformed trace did not exit 2"
grep -q "bad.trace:2: unknown operation 'teleport'" "$tmp/err" || fail "trace error: $(cat "$tmp/err")"
e scenario chain-order --variant nosuch 2>"$tmp/err"; [[ $? == 2 ]] || fail "unknown variant did not exit 2"
e walkcost --variant avc --children x --pages 2 2>"$tmp/err"; [[ $? == 2 ]] || fail "bad --children did not exit 2"
grep -q -- "--children x: expected an integer" "$tmp/err" || fail "bad number error: $(cat "$tmp/err")"
e fuzz --variant avc --ops 3000 --seed 5 >"$tmp/f" || fail "fuzz avc: $(cat "$tmp/f")"
e threads --variant modern --users 2 --seconds 1 >"$tmp/t" || fail "threads: $(cat "$tmp/t")"
grep -q "anon_vma locks .* acquired" "$tmp/t" || fail "threads output: $(cat "$tmp/t")"
[[ $(sqlite3 "$db" "select count(*) from results r join runs u on u.id = r.run_id where u.variant = 'modern' and r.metric in ('lock_acquisitions', 'lock_contentions', 'lock_wait_ns')") == 3 ]] || fail "threads lock figures not in the database"
runs=$(sqlite3 "$db" "select count(*) from runs where target = 'engine' and status = 'done'")
[[ $runs == 10 ]] || fail "engine runs not recorded ($runs)"
[[ $(sqlite3 "$db" "select count(*) from results r join runs u on u.id = r.run_id where u.variant = 'legacy' and r.metric = 'rmap_vmas_per_walk'") == 1 ]] || fail "walkcost figures not in the database"
exit 0
