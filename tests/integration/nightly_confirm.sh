#!/usr/bin/env bash
# A night's regression is run again before it fails: against a baseline
# made a thousand times as fast in the database, the flagged jobs_per_min
# does not repeat when both configs run again A B A B, and is "not
# confirmed" on the terminal, in JUnit (skipped), Markdown and the report,
# with its four confirmation runs tagged and linked to the night and the
# flags kept (a flagged night is never a baseline); a real regression
# (a user 2,000,000 iterations slower) repeats and fails the night. The
# night writes the trend page and its report links it.
. "$(dirname "$0")/../lib.sh"
db=$tmp/r/rmapbench.db
mkdir -p "$tmp/r"
cat >"$tmp/tiny.conf" <<CONF
name = tiny
workloads = aim7
users = 2
repetitions = 5
jobs_per_user = 10
shared_mib = 1
seed = $marker
collectors = cpu
CONF
sql() { sqlite3 "$db" "$1"; }
night() { "$BIN" --db "$db" nightly --config "$tmp/tiny.conf" "$@" >"$tmp/out" 2>"$tmp/err"; }
night || fail "the first night exited $?: $(tail -n 5 "$tmp/err")"
sql "UPDATE results SET value = value * 1000 WHERE run_id = 1 AND metric IN ('jobs_per_min', 'jobs_per_min_per_user', 'forks_per_s')"

night --junit "$tmp/v.xml" --markdown "$tmp/v.md"
rc=$?
[[ $rc == 0 || $rc == 1 ]] || fail "the night against a faked baseline exited $rc: $(tail -n 5 "$tmp/err")"
grep -q "^nightly tiny: [0-9]* regressions flagged; their points again" "$tmp/out" || fail "nothing was run again: $(grep -E '^(nightly|regression)' "$tmp/out" | head)"
grep -q "^not confirmed aim7 [12] jobs_per_min: tonight -99\.[0-9]% .*again A B A B: " "$tmp/out" ||
	fail "jobs_per_min is not 'not confirmed': $(grep -E 'confirmed' "$tmp/out" | head)"
night_run=$(sql "SELECT max(id) FROM runs WHERE tag = 'nightly'")
[[ $(sql "SELECT count(*) FROM runs WHERE tag = 'confirm' AND confirms = $night_run AND status = 'done'") == 4 ]] ||
	fail "not four confirmation runs linked to night $night_run: $(sql "SELECT id, tag, confirms, status FROM runs")"
[[ $(sql "SELECT count(*) FROM night_flags WHERE run_id = $night_run AND metric = 'jobs_per_min' AND verdict = 'not confirmed'") == 1 ]] ||
	fail "the not-confirmed flags are not kept: $(sql "SELECT * FROM night_flags")"
grep -q 'name="jobs_per_min"><skipped message="not confirmed: ' "$tmp/v.xml" || fail "JUnit: $(grep jobs_per_min "$tmp/v.xml" | head -n 2)"
python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$tmp/v.xml" || fail "the JUnit file does not parse"
grep -q "| not confirmed | aim7 | [12] | jobs_per_min |" "$tmp/v.md" || fail "Markdown: $(grep -c . "$tmp/v.md") lines"
grep -q "^nightly: .*[0-9]* not confirmed" "$tmp/out" || fail "the night's line: $(grep '^nightly: ' "$tmp/out")"
report=$(sed -n 's/^report: //p' "$tmp/out" | tail -n 1)
grep -q "<td>not confirmed</td><td>aim7</td>" "$report" || fail "the report has no not-confirmed row"
grep -q 'id="trend" href="../trend-tiny/trend.html"' "$report" || fail "the report does not link the trend page"
[[ -s $tmp/r/trend-tiny/trend.html ]] || fail "no trend page beside the runs"

# the flagged night is not the next one's baseline; a real regression repeats
night --set compute_iters=2000000
rc=$?
[[ $rc == 1 ]] || fail "a user 2,000,000 iterations slower exited $rc, not 1: $(grep -E 'confirmed|^nightly' "$tmp/out" | head)"
grep -q "A = tiny run 1 (last nightly)" "$tmp/out" || fail "judged against the flagged night: $(grep 'A = ' "$tmp/out")"
grep -q "^confirmed *aim7 [12] jobs_per_min: .*confirmed: again A B A B -" "$tmp/out" ||
	fail "the real regression is not confirmed: $(grep -E 'confirmed' "$tmp/out" | head)"
grep -q "^nightly: REGRESSED" "$tmp/out" || fail "the night's line: $(grep '^nightly: ' "$tmp/out")"
echo "nightly_confirm: a faked regression not confirmed (JUnit skipped, Markdown, report, 4 linked runs), a real one confirmed"
