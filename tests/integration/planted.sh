#!/usr/bin/env bash
# Outputs are created without following links: a link planted as a run's
# directory is refused, links planted inside it are replaced rather than
# written through, and two databases in one folder keep apart.
. "$(dirname "$0")/../lib.sh"
dir=$tmp/results
mkdir -p "$dir" "$tmp/victim"
echo precious >"$tmp/victim/report.html"
echo precious >"$tmp/victim-file"
printf 'users = 1\njobs_per_user = 1\nshared_mib = 1\nseed = %s\ncollectors = cpu\n' "$marker" >"$tmp/s.conf"

ln -s "$tmp/victim" "$dir/run-1"
"$BIN" --db "$dir/rmapbench.db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err" && fail "a run wrote through a planted directory link"
grep -q "symbolic link" "$tmp/err" || fail "no clear error: $(cat "$tmp/err")"
[[ $(cat "$tmp/victim/report.html") == precious && $(ls "$tmp/victim") == report.html ]] ||
	fail "the link's target was written: $(ls "$tmp/victim")"

rm "$dir/run-1"
mkdir "$dir/run-2"
for f in report.html jobs_per_min.png jobs_per_min.svg sys_pct.tsv point-001.log; do
	ln -s "$tmp/victim-file" "$dir/run-2/$f"
done
"$BIN" --db "$dir/rmapbench.db" run "$tmp/s.conf" >"$tmp/out" 2>"$tmp/err" || fail "the second run: $(cat "$tmp/err")"
[[ $(cat "$tmp/victim-file") == precious ]] || fail "a planted link's target was overwritten"
for f in report.html jobs_per_min.png sys_pct.tsv point-001.log; do
	[[ -f $dir/run-2/$f && ! -L $dir/run-2/$f ]] || fail "$f is still the planted link"
done

"$BIN" --db "$dir/a.db" run "$tmp/s.conf" >/dev/null 2>&1 || fail "a.db's run"
"$BIN" --db "$dir/b.db" run "$tmp/s.conf" >/dev/null 2>&1 || fail "b.db's run"
[[ -s $dir/a.db-run-1/report.html && -s $dir/b.db-run-1/report.html ]] || fail "two databases share a run directory"
grep -q 'a.db\|run 1' "$dir/a.db-run-1/report.html" || fail "a.db's report is not a.db's"
echo "planted links refused or replaced; two databases apart"
