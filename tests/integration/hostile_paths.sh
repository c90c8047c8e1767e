#!/usr/bin/env bash
# Paths and names reach gnuplot as arguments, never as gnuplot text: a
# database path with quotes, '$', spaces and a newline, a directory named
# like a gnuplot pipe, and workload names from a hostile database all give
# every figure, and run nothing.
. "$(dirname "$0")/../lib.sh"
figs=(jobs_per_min jobs_per_min_per_user sys_pct lock_contentions lockstat_anon_vma_contentions rmap_vmas_per_walk)
check_figures() { # DIR
	for f in "${figs[@]}"; do
		[[ -s $1/$f.png && -s $1/$f.svg ]] || fail "figure $f missing in $1: $(ls "$1")"
	done
	[[ -s $1/report.html ]] || fail "no report.html in $1"
}
# What the payloads would touch: files named pwned-N in the harness's
# working directory (gnuplot's too).
mkdir -p "$tmp/cwd"
cd "$tmp/cwd" || exit 1
no_marks() {
	local m
	m=$(find "$tmp" -type f -name 'pwned-*' 2>/dev/null | head -n 3)
	[[ -z $m ]] || fail "something ran: $m"
}
printf 'users = 1, 2\njobs_per_user = 2\nshared_mib = 1\nseed = %s\ncollectors = cpu\n' "$marker" >"$tmp/s.conf"

weird="$tmp/o'brien \"q\" \$(touch pwned-1) ';system(\"touch pwned-2\");'"$'\n'"nl"
"$BIN" --db "$weird/rb.db" run "$tmp/s.conf" >"$tmp/out" 2>&1 || fail "a run under a weird path: $(tail -n 5 "$tmp/out")"
check_figures "$weird/rb.db-run-1"
no_marks

mkdir -p '<touch pwned-3'
"$BIN" --db '<touch pwned-3/rb.db' run "$tmp/s.conf" >"$tmp/out" 2>&1 || fail "a run under '<touch': $(tail -n 5 "$tmp/out")"
check_figures "<touch pwned-3/rb.db-run-1"
no_marks

# names read back from a database someone else wrote
db="$weird/rb.db"
sql "$db" "UPDATE points SET workload = 'a'';system(\"touch pwned-4\");''b c' WHERE users = 1"
sql "$db" "UPDATE runs SET config_name = '<script>x</script>'"
rm -f "$weird"/rb.db-run-1/*.png "$weird"/rb.db-run-1/*.svg
"$BIN" --db "$db" report 1 >"$tmp/out" 2>&1 || fail "report of a hostile database: $(tail -n 5 "$tmp/out")"
check_figures "$weird/rb.db-run-1"
no_marks
grep -q '<script>' "$weird/rb.db-run-1/report.html" && fail "a name reached the HTML unescaped"

# The database's folder belongs to another user, who swaps the run's
# directory for a link to a folder of their choosing mid-run: every file
# of the run still goes into the directory the run made (opened once,
# named by its descriptor from then on), none through the link.
if [[ $(id -u) == 0 ]] && command -v runuser >/dev/null; then
	theirs=$tmp/theirs
	mkdir -p "$theirs" "$tmp/chosen"
	chown nobody "$theirs" "$tmp/chosen"
	chmod 755 "$tmp"
	printf 'users = 1, 2\nduration_s = 2\nshared_mib = 1\nseed = %s\ncollectors = cpu\n' "$marker" >"$tmp/d.conf"
	"$BIN" --db "$theirs/rb.db" run "$tmp/d.conf" >"$tmp/out" 2>&1 &
	h=$!
	while kill -0 $h 2>/dev/null && [[ ! -e $theirs/rb.db-run-1/point-001.log ]]; do sleep 0.05; done
	runuser -u nobody -- sh -c "mv '$theirs/rb.db-run-1' '$theirs/moved' && ln -s '$tmp/chosen' '$theirs/rb.db-run-1'" ||
		fail "the other user could not swap the directory"
	wait $h || fail "the run whose directory was swapped failed: $(tail -n 5 "$tmp/out")"
	[[ -z $(ls -A "$tmp/chosen") ]] || fail "root wrote through the swapped link: $(ls "$tmp/chosen")"
	[[ -s $theirs/moved/report.html && -e $theirs/moved/point-002.log && -s $theirs/moved/sys_pct.png ]] || fail "the run's files are not in its directory: $(ls "$theirs/moved")"
	grep -q "^report: $theirs/rb.db-run-1/report.html" "$tmp/out" || fail "the report's path is not said as a person knows it: $(grep report: "$tmp/out")"
fi
echo "hostile paths and names: every figure, nothing ran"
