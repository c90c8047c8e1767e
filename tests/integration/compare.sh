#!/usr/bin/env bash
# compare A B: exact engine counts compared exactly, measured metrics
# tested over repetitions, kernel errors by their appearance (the total
# and each signature); regressions exit 1, A/A exits 0, JUnit that a
# parser reads, a Markdown summary, runs of another database, and bad
# input in one line with exit 2.
. "$(dirname "$0")/../lib.sh"
db=$tmp/r/rmapbench.db
mkdir -p "$tmp/r"
for v in avc avc legacy; do
	"$BIN" --db "$db" engine walkcost --variant $v --children 10,50 --pages 8 >/dev/null 2>&1 || fail "walkcost $v"
done
"$BIN" --db "$db" compare 1 2 >"$tmp/aa" 2>&1 || fail "A/A exited $?: $(tail -n 3 "$tmp/aa")"
grep -q '^0 regressions, 0 improvements' "$tmp/aa" || fail "A/A found a difference: $(tail -n 3 "$tmp/aa")"
"$BIN" --db "$db" compare 1 3 --junit "$tmp/j.xml" --markdown "$tmp/m.md" >"$tmp/ab" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "avc against legacy exited $rc, not 1: $(tail -n 3 "$tmp/ab")"
grep -qE '^regression +walkcost +50 rmap_vmas_per_walk .*exact counts' "$tmp/ab" ||
	fail "no exact regression on rmap_vmas_per_walk: $(head -n 12 "$tmp/ab")"
python3 - "$tmp/j.xml" <<'PY' || fail "the JUnit file is not what CI reads"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1
cases = suites[0].findall("testcase")
fails = [c for c in cases if c.find("failure") is not None]
assert len(cases) == int(suites[0].get("tests")) and len(fails) == int(suites[0].get("failures")) > 0
assert any(c.get("name") == "rmap_vmas_per_walk" and "rmap_vmas_per_walk" in c.find("failure").get("message")
           for c in fails)
PY
grep -q '^| regression | walkcost | 50 | rmap_vmas_per_walk |' "$tmp/m.md" || fail "the Markdown summary: $(head -n 8 "$tmp/m.md")"
# A run given twice on a side would be pooled twice: refused
expect 2 "compare: '1,1,1': run 1 is given twice" "$BIN" --db "$db" compare 1,1,1 2
# Names are compared whole, however long: with a workload's name of 70
# bytes, and a metric's of 80, on both sides (a benchmark's, or one from a
# merged database) the rows meet, and the regression is seen. Names cut
# at 63 bytes once made such rows "only in B", and the run exit 0.
cp "$db" "$tmp/long.db"
wl=$(printf 'walkcost/%061d' 7)
mt=$(printf 'rmap_vmas_per_walk_%061d' 7)
sql "$tmp/long.db" "UPDATE points SET workload = '$wl' WHERE run_id IN (1, 3); UPDATE results SET metric = '$mt' WHERE metric = 'rmap_vmas_per_walk' AND run_id IN (1, 3)"
"$BIN" --db "$tmp/long.db" compare 1 3 >"$tmp/long" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "a regression under 70-byte names exited $rc, not 1: $(tail -n 3 "$tmp/long")"
grep -q "only in" <(grep "$wl" "$tmp/long") && fail "70-byte names did not meet: $(grep "$wl" "$tmp/long" | head -3)"
[[ $(grep -c "^regression .*walkcost/0000" "$tmp/long") -ge 1 ]] || fail "the long-named regression is not said: $(head -n 12 "$tmp/long")"

# kernel errors: reports in B where A had none are a regression at one
# repetition a side, where no test could speak; none in B an improvement
cp "$db" "$tmp/kerr.db"
sql "$tmp/kerr.db" "INSERT INTO results (run_id, point_id, repetition, metric, value, unit)
	SELECT run_id, id, repetition, 'kernel_error_reports', CASE run_id WHEN 2 THEN 1 ELSE 0 END, 'reports'
	FROM points WHERE run_id IN (1, 2)"
"$BIN" --db "$tmp/kerr.db" compare 1 2 >"$tmp/kerr" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "kernel errors appearing in B exited $rc, not 1: $(tail -n 3 "$tmp/kerr")"
grep -qE '^regression .*kernel_error_reports .*by appearance: 0 in A' "$tmp/kerr" ||
	fail "the kernel errors' regression is not said: $(grep kernel_error "$tmp/kerr")"
"$BIN" --db "$tmp/kerr.db" compare 2 1 >"$tmp/kerr2" 2>&1
grep -qE '^improvement .*kernel_error_reports' "$tmp/kerr2" || fail "errors gone are not an improvement: $(grep kernel_error "$tmp/kerr2")"

# each signature a row of its own: one both sides show is reported, not
# judged; one only B shows is a regression, printed before the table with
# its report, in JUnit's system-out and in the Markdown, escaped
sql "$tmp/kerr.db" "INSERT INTO point_attrs (point_id, key, value)
	SELECT id, 'kernel_error_1', '2 WARNING in anon_vma_clone' FROM points WHERE run_id IN (1, 2);
	INSERT INTO point_attrs (point_id, key, value)
	SELECT id, 'kernel_error_2', '1 KASAN: use-after-free Read in folio_lock_anon_vma_read'
	FROM points WHERE run_id = 2 AND seq = 1;
	INSERT INTO point_attrs (point_id, key, value)
	SELECT id, 'kernel_error_2_text_1', 'BUG: KASAN: use-after-free in folio_lock_anon_vma_read+0x1a/0x90\\n<script>x</script> Read of size 8'
	FROM points WHERE run_id = 2 AND seq = 1;
	INSERT INTO point_attrs (point_id, key, value)
	SELECT id, 'kernel_error_3', 'not a count' FROM points WHERE run_id = 2 AND seq = 1"
"$BIN" --db "$tmp/kerr.db" compare 1 2 --junit "$tmp/kerr.xml" --markdown "$tmp/kerr.md" >"$tmp/kerr3" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "a new signature exited $rc, not 1"
grep -qE '^regression: kernel_error: KASAN: use-after-free Read in folio_lock_anon_vma_read \(new in B' "$tmp/kerr3" ||
	fail "the new signature is not said first: $(head -n 8 "$tmp/kerr3")"
[[ $(grep -n 'kernel errors:' "$tmp/kerr3" | cut -d: -f1) -lt $(grep -n '^verdict ' "$tmp/kerr3" | cut -d: -f1) ]] ||
	fail "the kernel errors are not printed before the table"
grep -q '    BUG: KASAN: use-after-free in folio_lock_anon_vma_read+0x1a/0x90' "$tmp/kerr3" || fail "the report's text is not shown"
grep -qE '^same: kernel_error: WARNING in anon_vma_clone \(both show it \(not judged\)' "$tmp/kerr3" ||
	fail "a signature both show is judged: $(grep anon_vma_clone "$tmp/kerr3")"
grep -q 'not a count' "$tmp/kerr3" && fail "a value that is not COUNT SIGNATURE was taken"
python3 - "$tmp/kerr.xml" <<'PY' || fail "JUnit: $(cat "$tmp/kerr.xml" | head -c 600)"
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1])
cases = [c for c in t.iter("testcase") if "KASAN" in c.get("name")]
assert cases and cases[0].find("failure") is not None, "no failing case for the signature"
out = cases[0].find("system-out").text
assert "<script>x</script> Read of size 8" in out and "\n" in out, out
PY
grep -q '^    <script>x</script> Read of size 8' "$tmp/kerr.md" || fail "the Markdown lacks the report as a code block"

# measured metrics: ten repetitions a side from a workload that says what it measured
cat >"$tmp/load" <<SH
#!/bin/sh
base=\$(cat "$tmp/base")
echo "metric jobs_per_min \$((base + \$(od -An -N1 -tu1 /dev/urandom) % 5)) jobs/min"
echo "metric users 1 users"
SH
chmod +x "$tmp/load"
# No collector: the stand-in's own wall and CPU times (15 ms of sh) are
# real measurements of nothing, and drift between runs beyond their floors.
printf 'users = 1\nrepetitions = 10\ncollectors =\nduration_s = 1\n' >"$tmp/m.conf"
echo 1000 >"$tmp/base"
RMAPBENCH_LOAD=$tmp/load "$BIN" --db "$db" run "$tmp/m.conf" >/dev/null 2>&1 || fail "measured run A"
RMAPBENCH_LOAD=$tmp/load "$BIN" --db "$db" run "$tmp/m.conf" >/dev/null 2>&1 || fail "measured run A'"
echo 800 >"$tmp/base"
RMAPBENCH_LOAD=$tmp/load "$BIN" --db "$db" run "$tmp/m.conf" >/dev/null 2>&1 || fail "measured run B"
"$BIN" --db "$db" compare last~2 last~1 >"$tmp/mm" 2>&1 || fail "measured A/A exited $?: $(grep jobs_per_min "$tmp/mm")"
grep -qE '^same +aim7 +1 jobs_per_min ' "$tmp/mm" || fail "measured A/A: $(grep jobs_per_min "$tmp/mm")"
"$BIN" --db "$db" compare last~2 last >"$tmp/mb" 2>&1 && fail "a 20% drop in jobs/min is not a regression"
grep -qE '^regression +aim7 +1 jobs_per_min .*q = ' "$tmp/mb" || fail "measured A/B: $(grep jobs_per_min "$tmp/mb")"

# two runs' crossovers: where jobs/min per user falls to 10, the ratio, and
# the six-panel figure with both marked
cat >"$tmp/xload" <<SH
#!/bin/sh
for a in "\$@"; do case \$a in users=*) u=\${a#users=} ;; esac; done
base=\$(cat "$tmp/base")
echo "metric jobs_per_min_per_user \$((base / u)) jobs/min"
echo "metric jobs_per_min \$base jobs/min"
echo "metric rmap_vmas_per_walk \$((base / 100)) vmas"
SH
chmod +x "$tmp/xload"
printf 'users = 10 30 60 120 240\nrepetitions = 1\ncollectors = cpu\nduration_s = 1\n' >"$tmp/x.conf"
echo 2400 >"$tmp/base"
RMAPBENCH_LOAD=$tmp/xload "$BIN" --db "$db" run "$tmp/x.conf" >/dev/null 2>&1 || fail "crossover run A"
echo 1200 >"$tmp/base"
RMAPBENCH_LOAD=$tmp/xload "$BIN" --db "$db" run "$tmp/x.conf" >/dev/null 2>&1 || fail "crossover run B"
"$BIN" --db "$db" compare last~1 last --crossover >"$tmp/xc" 2>&1
grep -qE '^crossover ratio aim7: run-[0-9]+ at 240 users, run-[0-9]+ at 120: run-[0-9]+/run-[0-9]+ = 0\.50$' "$tmp/xc" ||
	fail "the crossover ratio: $(grep crossover "$tmp/xc")"
# jobs/min where A crosses, and the cause where B crosses, B against A
grep -qE "^jobs/min at run-[0-9]+'s crossover point \(aim7, 240 users\): run-[0-9]+ 2400, run-[0-9]+ 1200 \(-50%, n = 1 and 1\); a test needs two repetitions a side$" "$tmp/xc" ||
	fail "jobs/min at the crossover: $(grep 'crossover point' "$tmp/xc")"
grep -qE "^at run-[0-9]+'s crossover point \(aim7, 120 users\): rmap_vmas_per_walk run-[0-9]+ 24, run-[0-9]+ 12: run-[0-9]+/run-[0-9]+ = 0\.5x$" "$tmp/xc" ||
	fail "the cause at B's crossover: $(grep 'crossover point' "$tmp/xc")"
png=$(sed -n 's/^figure: //p' "$tmp/xc")
[[ $png == */crossover.png && $(head -c 4 "$png" | od -An -c | tr -d ' ') == "211PNG" ]] || fail "no crossover figure: $png"
expect 2 "one run a side" "$BIN" --db "$db" compare last~1,last last --crossover

# a run of another database, and bad input
cp "$db" "$tmp/other.db"
"$BIN" --db "$db" compare 1 "$tmp/other.db:2" >"$tmp/x" 2>&1 || fail "across databases: $(tail -n 3 "$tmp/x")"
expect 2 "no run '99'" "$BIN" --db "$db" compare 1 99
expect 2 "no (workload, users, metric) in common" "$BIN" --db "$db" compare 1 last
expect 2 "expected two sides" "$BIN" --db "$db" compare 1
# A comparison at one users count is drawn as the runs side by side ("at
# N users"), never on a users axis with one tick.
sdb=$tmp/s/rb.db
mkdir -p "$tmp/s"
for i in 1 2; do
	"$BIN" --db "$sdb" run "$top/configs/quick.conf" --set target=engine --set users=8 --set repetitions=2 \
		--set workloads=aim7 >"$tmp/so" 2>&1 || fail "an engine run at 8 users: $(tail -n 3 "$tmp/so")"
done
"$BIN" --db "$sdb" compare 1 2 --crossover >"$tmp/sc" 2>&1 || (($? == 1)) || fail "compare --crossover: $(tail -n 3 "$tmp/sc")"
svg=$tmp/s/rb.db-compare-1-2/crossover.svg
[[ -f $svg ]] || fail "no crossover figure for two runs at 8 users: $(grep -i figure "$tmp/sc")"
[[ $(grep -c '>at 8 users<' "$svg") -ge 3 ]] || fail "the single-users figure does not say 'at 8 users'"
! grep -q '>users<' "$svg" || fail "the single-users figure has a users axis"
# and so is a run's own figure at one users count, its title saying so
rsvg=$tmp/s/rb.db-run-1/jobs_per_min.svg
grep -q '>at 8 users<' "$rsvg" && grep -q 'jobs per minute at 8 users' "$rsvg" && ! grep -q '>users<' "$rsvg" ||
	fail "a run at one users count is drawn on a users axis: $(grep -o '>[^<]*users[^<]*<' "$rsvg" | head -3)"
echo "compare: exact and tested verdicts, exit codes, JUnit, Markdown, other databases"
