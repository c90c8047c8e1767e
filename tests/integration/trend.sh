#!/usr/bin/env bash
# The trend of a suite's nights through the CLI: a history written through
# the database API with a -20% step at night 6 is dated to night 6 with
# the revisions between nights 5 and 6, --check exits 1 on it and 0 on an
# A/A history; the page and the JSON say the same; a hostile revision
# reaches neither the page nor gnuplot as markup; bad flags are one line,
# exit 2.
# concurrent: its own databases and pages in its temporary folder
. "$(dirname "$0")/../lib.sh"
W=$top/build/tests/test_trend
[[ -x $W ]] || fail "no $W (make test builds it)"
"$W" --write "$tmp/step.db" step 10 4 1 || fail "the step history"
"$W" --write "$tmp/flat.db" flat 10 4 21 || fail "the A/A history"

"$BIN" --db "$tmp/step.db" trend synthetic --check >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc == 1 ]] || fail "--check on a step exited $rc, not 1: $(cat "$tmp/out" "$tmp/err" | tail -n 5)"
grep -q "^  regression  aim7 8 jobs_per_min: at night 6 (.*), after night 5: .* -20\.[0-9]%.*revisions rev0005\.\.rev0006$" "$tmp/out" ||
	fail "the step is not dated to night 6: $(grep -E 'regression|changed' "$tmp/out")"
[[ $(grep -c '^  \(regression\|improvement\|changed\) ' "$tmp/out") == 1 ]] || fail "a change point on another metric: $(cat "$tmp/out")"
page=$(sed -n 's/^page: //p' "$tmp/out")
[[ -s $page ]] || fail "no page: $(tail -n 3 "$tmp/out")"
grep -q 'rev0005..rev0006' "$page" || fail "the page's change point lacks the revisions"
grep -q 'data="trend-0-[0-9]*.svg"' "$page" || fail "the page has no figure"
svg=$(dirname "$page")/$(grep -o 'trend-0-[0-9]*.svg' "$page" | head -n 1)
grep -q 'rev0006' "$svg" || fail "the figure's hover text lacks the night's revision"

"$BIN" --db "$tmp/step.db" trend synthetic --json >"$tmp/json" || fail "--json exited $?"
python3 - "$tmp/json" <<'PY' || fail "the JSON: $(head -c 300 "$tmp/json")"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["suites"][0]
assert s["suite"] == "synthetic" and len(s["nights"]) == 10, s["suite"]
cps = [(x["metric"], c) for x in s["series"] for c in x["change_points"]]
assert len(cps) == 1 and cps[0][0] == "jobs_per_min", cps
c = cps[0][1]
assert c["night"] == 6 and c["after_night"] == 5 and c["kind"] == "regression", c
assert c["revision_before"] == "rev0005" and c["revision_after"] == "rev0006", c
assert -0.21 < c["shift"] < -0.19 and c["shift_lo"] < c["shift"] < c["shift_hi"], c
assert s["regressions_to_check"] == 1
PY

"$BIN" --db "$tmp/flat.db" trend synthetic --check >"$tmp/out" 2>&1 || fail "--check on A/A exited $?: $(tail -n 3 "$tmp/out")"
grep -q "0 change points" "$tmp/out" || fail "A/A: $(head -n 3 "$tmp/out")"
"$BIN" --db "$tmp/step.db" trend synthetic --metric sys_pct --check >"$tmp/out" 2>&1 ||
	fail "--metric sys_pct: exited $?: $(tail -n 2 "$tmp/out")"
"$BIN" --db "$tmp/step.db" trend synthetic --nights 4 --check >"$tmp/out" 2>&1 ||
	fail "the newest 4 nights hold no change: exited $?"
grep -q ": 4 nights" "$tmp/out" || fail "--nights 4: $(head -n 1 "$tmp/out")"

# a hostile revision and kernel: escaped on the page, cut in the hover text
sqlite3 "$tmp/step.db" "UPDATE runs SET revision = '<script>x</script>\"', kernel_release = 'k\"\\n' WHERE id = 6"
"$BIN" --db "$tmp/step.db" trend synthetic >"$tmp/out" 2>&1 || fail "a hostile revision: exited $?"
page=$(sed -n 's/^page: //p' "$tmp/out")
! grep -q '<script>x' "$page" || fail "a revision reached the page as markup"
grep -q '&lt;script&gt;x' "$page" || fail "the revision is not on the page, escaped"
! grep -q '<script>x' "$(dirname "$page")"/trend-0-*.svg || fail "a revision reached a figure as markup"

expect 2 "--since yesterday: expected a date" "$BIN" --db "$tmp/step.db" trend --since yesterday
expect 2 "--nights" "$BIN" --db "$tmp/step.db" trend --nights x
expect 2 "no-such.conf" "$BIN" --db "$tmp/step.db" trend --config "$tmp/no-such.conf"
"$BIN" --db "$tmp/step.db" trend nosuchsuite >"$tmp/out" 2>&1 || fail "an unknown suite exited $?"
grep -q "no nightly runs of suite nosuchsuite" "$tmp/out" || fail "an unknown suite: $(cat "$tmp/out")"
echo "trend: step dated to night 6 with rev0005..rev0006, --check 1 and A/A 0, page, JSON, hostile revision, bad flags"
