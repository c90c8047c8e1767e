#!/usr/bin/env bash
# The nightly that says "worse": the first night records and says there is
# no baseline; A/A (the same build and config again) exits 0 with no
# regression, and a machine slower for its benchmarks is a drift said;
# A/B (the engine part's design switched from avc to legacy) exits 1 with
# regressions on rmap_vmas_per_walk, in a JUnit file a parser reads;
# baselines can be pinned; bad input is one line and exit 2.
. "$(dirname "$0")/../lib.sh"
db=$tmp/r/rmapbench.db
mkdir -p "$tmp/r"
cat >"$tmp/tiny.conf" <<CONF
name = tiny
workloads = aim7
users = 1 2
repetitions = 2
jobs_per_user = 2
shared_mib = 1
seed = $marker
collectors = cpu
engine_children = 5 20
engine_pages = 4
variant = avc
bench_repetitions = 6
bench_min_time_s = 0.01
CONF
night() { "$BIN" --db "$db" nightly --config "$tmp/tiny.conf" "$@" >"$tmp/out" 2>"$tmp/err"; }
night --junit "$tmp/first.xml" --markdown "$tmp/first.md"
rc=$?
[[ $rc == 0 ]] || fail "the first night exited $rc: $(tail -n 5 "$tmp/err")"
grep -q "tiny: no baseline yet" "$tmp/out" || fail "the first night does not say it has no baseline: $(tail -n 5 "$tmp/out")"
# a CI job that publishes the files finds them on a first night too: each
# part recorded and said not judged, none a failure
python3 - "$tmp/first.xml" <<'PY' || fail "the first night's JUnit: $(head -c 600 "$tmp/first.xml")"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = root.findall("testsuite")
assert len(suites) == 3, [s.get("name") for s in suites]
assert root.get("failures") == "0", root.get("failures")
for s in suites:
    msg = s.find("testcase/skipped").get("message")
    assert msg.startswith("no baseline yet on this machine"), msg
PY
[[ $(grep -c ', not judged$' "$tmp/first.md") == 3 ]] || fail "the first night's Markdown: $(cat "$tmp/first.md")"
# the host rows of two repetitions a side cannot reach q < 0.05: too few
# to test, never the same
# (a copy of the database: the nights below count their runs from here)
cp "$db" "$tmp/second.db"
"$BIN" --db "$tmp/second.db" nightly --config "$tmp/tiny.conf" --markdown "$tmp/second.md" >"$tmp/out" 2>&1 ||
	fail "the second night: $(tail -n 3 "$tmp/out")"
grep -q "rows the same, [1-9][0-9]* too few to test" "$tmp/second.md" || fail "two a side counted as tested: $(head -5 "$tmp/second.md")"
grep -q "n = 2 and 2: Mann-Whitney cannot go below p = 0.33; 4 a side can reach 0.05" "$tmp/out" "$tmp/second.md" ||
	"$BIN" --db "$tmp/second.db" compare 1 4 | grep -q "n = 2 and 2: Mann-Whitney cannot go below p = 0.33; 4 a side" ||
	fail "a row of two a side does not say what it needs"
night --junit "$tmp/aa.xml"
rc=$?
[[ $rc == 0 ]] || fail "A/A exited $rc: $(grep -E '^regression|nightly' "$tmp/out" | head -5)"
grep -q "^nightly: no regression (0 regressions over 3 comparisons" "$tmp/out" || fail "A/A: $(tail -n 3 "$tmp/out")"
# A machine 10x slower for the A/A night's benchmarks is a drift said,
# not 27 regressions; one benchmark slower again is judged against it.
# (10x, not less: the two nights' own benchmarks differ by up to 2x on a
# busy machine, so the drift said is anywhere from 4x to 30x.)
read -r b1 b2 < <(sql "$db" "SELECT group_concat(id, ' ') FROM (SELECT id FROM runs WHERE target = 'bench' ORDER BY id LIMIT 2)")
[[ -n ${b2:-} ]] || fail "two nights, not two bench runs"
cp "$db" "$tmp/drift.db"
sql "$tmp/drift.db" "UPDATE results SET value = value * 10 WHERE run_id = $b2 AND metric IN ('real_time', 'cpu_time')"
"$BIN" --db "$tmp/drift.db" compare "$b1" "$b2" >"$tmp/drift" 2>&1 || fail "a 10x slower machine exited $?: $(grep -E '^(regression|drift)' "$tmp/drift" | head -3)"
grep -qE "^drift: B's real_time ran at x([4-9]|[12][0-9]|30)(\.[0-9]+)? A's in every row alike \(the median of [0-9]+ rows\).*past the floor" "$tmp/drift" ||
	fail "the drift is not said: $(head -n 3 "$tmp/drift")"
sql "$tmp/drift.db" "UPDATE results SET value = value * 4 WHERE run_id = $b2 AND metric = 'real_time' AND point_id IN (SELECT id FROM points WHERE run_id = $b2 AND workload LIKE 'engine/page_referenced/%')"
"$BIN" --db "$tmp/drift.db" compare "$b1" "$b2" >"$tmp/drift" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "a benchmark 4x slower than the drift exited $rc, not 1"
grep -qE "^regression +engine/page_referenced/children:1000 +1000 real_time .*B's drift x([4-9]|[12][0-9]|30)(\.[0-9]+)? taken off" "$tmp/drift" ||
	fail "the walk 4x slower than the drift is not a regression: $(grep page_referenced/children:1000 "$tmp/drift" | head -2)"
night --set variant=legacy --junit "$tmp/ab.xml" --markdown "$tmp/ab.md"
rc=$?
[[ $rc == 1 ]] || fail "A/B (avc to legacy) exited $rc, not 1: $(tail -n 3 "$tmp/out")"
grep -qE '^regression +walkcost +20 rmap_vmas_per_walk ' "$tmp/out" || fail "no rmap_vmas_per_walk regression"
# the engine benchmarks: legacy's walk of a large family is slower, a verdict
grep -qE '^regression +engine/page_referenced/children:1000 +1000 real_time ' "$tmp/out" ||
	fail "no real_time regression of the engine benchmarks' walk: $(grep -E 'page_referenced' "$tmp/out" | head -3)"
grep -qE '^regression +engine/page_referenced/children:1000 +1000 vmas_per_walk .*exact' "$tmp/out" ||
	fail "the benchmarks' VMAs per walk are not compared exactly"
python3 - "$tmp/ab.xml" <<'PY' || fail "the JUnit file"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites" and int(root.get("failures")) > 0
names = [c.get("name") for s in root.findall("testsuite") for c in s.findall("testcase") if c.find("failure") is not None]
assert "rmap_vmas_per_walk" in names, names
PY
grep -q '| regression | walkcost | 20 | rmap_vmas_per_walk |' "$tmp/ab.md" || fail "the Markdown summary"
# The regressed night is not the next night's baseline: back on avc, the
# night is judged against the last clean one, and finds nothing.
avc_night=$(sql "$db" "SELECT max(id) FROM runs WHERE config_name = 'tiny-walkcost' AND verdict = 'clean'")
night
rc=$?
[[ $rc == 0 ]] || fail "the night after a regression exited $rc: $(grep -E '^regression' "$tmp/out" | head -5)"
grep -q "tiny-walkcost run $avc_night (last nightly)" "$tmp/out" || fail "judged against the regressed night: $(grep 'A = tiny-walkcost' "$tmp/out")"
grep -q "^0 regressions, 0 improvements" "$tmp/out" || fail "the night after: $(grep 'regressions,' "$tmp/out")"

"$BIN" --db "$db" baseline set 1 --config "$tmp/tiny.conf" >"$tmp/out" 2>&1 || fail "baseline set: $(cat "$tmp/out")"
"$BIN" --db "$db" baseline show --config "$tmp/tiny.conf" | grep -q "run 1 (pinned)" || fail "baseline show"
expect 2 "is a run of suite 'tiny-walkcost', not 'tiny'" "$BIN" --db "$db" nightly --config "$tmp/tiny.conf" --baseline 2
expect 2 "no such run" "$BIN" --db "$db" nightly --config "$tmp/tiny.conf" --baseline 99
expect 2 "baseline set: no run '99'" "$BIN" --db "$db" baseline set 99 --config "$tmp/tiny.conf"
# Two machines' databases merged: every run once, and compare across them.
db2=$tmp/r2/rmapbench.db
mkdir -p "$tmp/r2"
"$BIN" --db "$db2" nightly --config "$tmp/tiny.conf" >/dev/null 2>&1 || fail "the second database's night"
n1=$(sql "$db" "SELECT count(*) FROM runs")
n2=$(sql "$db2" "SELECT count(*) FROM runs")
"$BIN" --db "$db" db merge "$db2" >"$tmp/out" 2>&1 || fail "db merge: $(cat "$tmp/out")"
"$BIN" --db "$db" db merge "$db2" >"$tmp/out" 2>&1 || fail "a second merge: $(cat "$tmp/out")"
grep -q ": 0 runs added" "$tmp/out" || fail "a second merge added runs: $(cat "$tmp/out")"
[[ $(sql "$db" "SELECT count(*) FROM runs") == $((n1 + n2)) ]] || fail "the merged database does not hold both"
[[ $(sql "$db" "SELECT count(DISTINCT uuid) FROM runs") == $((n1 + n2)) ]] || fail "a run was duplicated"
[[ $(sql "$db" "SELECT count(*) FROM results WHERE run_id = (SELECT max(id) FROM runs)") == \
	$(sql "$db2" "SELECT count(*) FROM results WHERE run_id = (SELECT max(id) FROM runs)") ]] || fail "results lost in the merge"
"$BIN" --db "$db" compare 2 last~1 >"$tmp/out" 2>&1 || fail "compare across the merged runs: $(tail -n 3 "$tmp/out")"
expect 2 "not an SQLite database" "$BIN" --db "$db" db merge "$tmp/tiny.conf"
# Retention: everything old goes but the pinned baseline, the newest run
# and the run that newest one is judged against.
newest=$(sql "$db" "SELECT max(id) FROM runs")
judged_against=$(sql "$db" "SELECT max(id) FROM runs WHERE tag = 'nightly' AND status = 'done' AND config_name =
	(SELECT config_name FROM runs WHERE id = $newest) AND id < $newest")
sql "$db" "UPDATE runs SET started_at = '2020-01-01T00:00:00Z'"
"$BIN" --db "$db" db prune --keep-days 30 --keep-last 1 >"$tmp/out" 2>&1 || fail "db prune: $(cat "$tmp/out")"
left=$(sql "$db" "SELECT group_concat(id) FROM (SELECT id FROM runs ORDER BY id)")
[[ $left == "1,$judged_against,$newest" ]] || fail "prune kept runs $left, not 1 (pinned), $judged_against and $newest"
[[ $(sql "$db" "SELECT count(*) FROM results WHERE run_id NOT IN (SELECT id FROM runs)") == 0 ]] || fail "orphan results"
expect 2 "--keep-days D is required" "$BIN" --db "$db" db prune --keep-last 3
# The vm part's plan, and where QEMU is missing, its skip said (a PATH
# without qemu-system-x86_64)
printf 'vm_kernels = stock\nvm_users = 8\nvm_workloads = aim7\n' >>"$tmp/tiny.conf"
"$BIN" --db "$db" nightly --config "$tmp/tiny.conf" --dry-run >"$tmp/out" 2>&1 || fail "dry run with a vm part"
grep -q "^# tiny-vm: 2 points on target vm, kernel stock" "$tmp/out" || fail "the vm part's plan: $(cat "$tmp/out")"
mkdir "$tmp/bin"
for f in /usr/bin/* /bin/*; do
	[[ $f == */qemu-system-* || -e $tmp/bin/${f##*/} ]] || ln -s "$f" "$tmp/bin/${f##*/}"
done
PATH=$tmp/bin "$BIN" --db "$db" nightly --config "$tmp/tiny.conf" --dry-run >"$tmp/out" 2>&1 || fail "dry run without QEMU"
grep -q "the vm part on stock is skipped: qemu-system-x86_64 is not installed" "$tmp/out" || fail "no skip said: $(cat "$tmp/out")"
printf 'vm_users = \n' >>"$tmp/tiny.conf"
expect 2 "vm_kernels needs vm_users" "$BIN" --db "$db" nightly --config "$tmp/tiny.conf" --dry-run

# The reference part is a positive control: made blind (the same kernel
# on both sides, a load too small to walk the rmap) the night exits 2 and
# says so, in the terminal and as the one failure of its JUnit suite.
cat >"$tmp/blind.conf" <<CONF
target = vm
kernel = stock
workloads = forkstorm
users = 1
jobs_per_user = 1
shared_mib = 1
vm_mem_mib = 128
vm_zram_mib = 0
seed = $marker
CONF
cat >"$tmp/ref.conf" <<CONF
name = ref
workloads = aim7
users = 1
jobs_per_user = 1
shared_mib = 1
seed = $marker
collectors = cpu
reference_kernels = stock stock
CONF
# a config names only a file of the checkout for root to read (a parse
# error would quote a line of it); the command line may name any
printf 'reference_config = /etc/shadow\n' >>"$tmp/bad.conf"
expect 2 "bad.conf:1: reference_config: '/etc/shadow' is not a file of the checkout" \
	"$BIN" --db "$db" nightly --config "$tmp/bad.conf" --dry-run
printf 'walk_calibration = configs/../../etc/shadow\n' >"$tmp/bad.conf"
expect 2 "walk_calibration: 'configs/../../etc/shadow' is not a file of the checkout" \
	"$BIN" --db "$db" run "$tmp/bad.conf"
ref=(--set "reference_config=$tmp/blind.conf")
"$BIN" --db "$db" nightly --config "$tmp/ref.conf" "${ref[@]}" --dry-run >"$tmp/out" 2>&1 || fail "dry run with a reference"
grep -q "^# reference: $tmp/blind.conf in stock and stock; must regress on rmap_vmas_per_walk" "$tmp/out" ||
	fail "the reference's plan: $(tail -n 3 "$tmp/out")"
printf 'reference_kernels = stock\n' >"$tmp/bad.conf"
expect 2 "reference_kernels: two kernels" "$BIN" --db "$db" nightly --config "$tmp/bad.conf" --dry-run
if command -v qemu-system-x86_64 >/dev/null; then
	"$BIN" --db "$db" nightly --config "$tmp/ref.conf" "${ref[@]}" --junit "$tmp/ref.xml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[[ $rc == 2 ]] || fail "a blind reference exited $rc, not 2: $(tail -n 3 "$tmp/out") $(tail -n 3 "$tmp/err")"
	grep -q "^nightly: the harness did not see the known regression: stock against stock shows no regression of rmap_vmas_per_walk" "$tmp/out" ||
		fail "the blind reference is not said: $(tail -n 5 "$tmp/out")"
	python3 - "$tmp/ref.xml" <<'PY' || fail "the blind reference's JUnit: $(head -c 800 "$tmp/ref.xml")"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ref = [s for s in root.findall("testsuite") if s.get("name").startswith("positive control: ")]
assert len(ref) == 1, [s.get("name") for s in root.findall("testsuite")]
f = ref[0].find("testcase[@classname='positive_control']/failure")
assert f is not None and "did not see the known regression of rmap_vmas_per_walk" in f.get("message")
assert root.get("failures") == "1", root.get("failures")
PY
fi
echo "nightly: first night, A/A 0, a drift said, A/B 1 with rmap_vmas_per_walk, JUnit, baselines, bad input, merge, prune"
