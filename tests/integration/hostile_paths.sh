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
echo "hostile paths and names: every figure, nothing ran"
