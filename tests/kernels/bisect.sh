#!/usr/bin/env bash
# make test-bisect: `rmapbench bisect` names the commit that brought
# 2.6.33's anon_vma rules into a git history over linux-source-6.1, with
# the culprit at two positions (the 3rd of 5 commits; the 4th, with the
# 2nd not compiling), each within ceil(log2(5)) + 2 = 5 kernels built
# beyond GOOD and BAD; the first bisect is interrupted as Ctrl-C would
# (SIGINT to its process group) once three steps are recorded, and
# started again it builds and runs none of them again; a bisect done,
# started again, reuses every step and builds nothing. Then the patch
# that brings the rule into a quilt series (the 2nd of 4) is named by
# `bisect --series`. RMAPBENCH_BISECT_TREES=DIR keeps the trees there (and
# reuses them). Times go to stdout for the record.
set -u
source "$(dirname "$0")/lib.sh"
trees=${RMAPBENCH_BISECT_TREES:-$tmp}
config=${RMAPBENCH_BISECT_CONFIG:-$top/configs/nightly-kernels.conf}

# interrupted TREE DB: a bisect of TREE stopped as Ctrl-C stops it (SIGINT
# to its process group) once three steps are recorded; it must exit 130.
# The recorded steps' commits go to third.hashes, their count to third.had.
interrupted() {
	local t=$1 db=$2 pid n=0 rc
	setsid "$BIN" --db "$db" bisect HEAD~5 HEAD --tree "$t" --config "$config" --metric rmap_vmas_per_walk \
		>"$tmp/third.int.out" 2>"$tmp/third.int.err" &
	pid=$!
	# a condition polled, not a duration: the third step's run recorded
	while kill -0 "$pid" 2>/dev/null; do
		n=$(sql "$db" "select count(*) from runs where tag = 'bisect' and status in ('done','failed')" 2>/dev/null || echo 0)
		((n >= 3)) && break
		sleep 2
	done
	kill -0 "$pid" 2>/dev/null || fail "third: the bisect ended before three steps were recorded: $(tail -n 3 "$tmp/third.int.err")"
	kill -INT -- "-$pid"
	wait "$pid"
	rc=$?
	[[ $rc == 130 ]] || fail "third: interrupted, the bisect exited $rc, not 130: $(tail -n 3 "$tmp/third.int.err")"
	sql "$db" "select count(*) from runs where tag = 'bisect' and status in ('done','failed')" >"$tmp/third.had"
	sql "$db" "select config_text from runs where tag = 'bisect' and status in ('done','failed')" |
		sed -n 's/^kernel=git:.*@\([0-9a-f]\{40\}\)$/\1/p' >"$tmp/third.hashes"
	echo "third: interrupted with SIGINT after $(cat "$tmp/third.had") steps recorded: exit 130"
}

one() { # one NAME CULPRIT BROKEN
	local name=$1 culprit=$2 broken=$3 t=$trees/$1 db=$tmp/$1.db
	[[ -d $t/.git ]] || "$top/tests/kernels/make_git_tree.sh" "$t" "$culprit" "$broken" >/dev/null ||
		fail "could not make the tree $t"
	local want builds0 s e
	want=$(git -C "$t" log --format=%H --grep="2.6.33's anon_vma rules" -n 1)
	builds0=$(find "${RMAPBENCH_KERNEL_CACHE:-$HOME/.cache/rmapbench/kernels}" -maxdepth 1 -name 'git-*' -type d | wc -l)
	s=$(date +%s)
	if [[ $name == third ]]; then
		interrupted "$t" "$db"
	fi
	"$BIN" --db "$db" bisect HEAD~5 HEAD --tree "$t" --config "$config" --metric rmap_vmas_per_walk \
		--junit "$tmp/$name.xml" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		fail "$name: bisect exited $?: $(tail -n 5 "$tmp/$name.err" "$tmp/$name.out")"
	e=$(date +%s)
	if [[ $name == third ]]; then
		# every step recorded before the interrupt is reused, none built
		local had reused
		had=$(cat "$tmp/third.had")
		reused=$(grep -c "recorded before" "$tmp/$name.out")
		((reused >= had)) || fail "third: started again, $reused steps reused of the $had recorded before the interrupt"
		while read -r h; do
			! grep -q "git:$t@$h.*built\|${h:0:12}.*built .* in [0-9]*s" "$tmp/$name.err" ||
				fail "third: ${h:0:12} was built again after the interrupt"
		done <"$tmp/third.hashes"
		echo "third: started again after Ctrl-C: $reused steps reused (of $had recorded), none rebuilt"
		cat "$tmp/third.int.err" "$tmp/$name.err" >"$tmp/$name.err.all"
		mv "$tmp/$name.err.all" "$tmp/$name.err"
	fi
	grep -q "^bisect: the first bad commit: $want" "$tmp/$name.out" ||
		fail "$name: the culprit ${want:0:12} is not named: $(grep -A2 'first bad\|not named' "$tmp/$name.out")"
	[[ -s $tmp/$name.xml ]] || fail "$name: no JUnit file"
	local steps built
	steps=$(sql "$db" "select count(*) from runs where tag = 'bisect'")
	built=$(grep -c "built .* in [0-9]*s" "$tmp/$name.err")
	if ((broken)); then
		grep -q "skipped: it did not build" "$tmp/$name.out" || fail "$name: the commit that does not compile was not skipped"
	fi
	((built <= 7)) || fail "$name: $built kernels built (GOOD and BAD, then at most 5)"
	echo "$name: culprit ${want:0:12} named in $((e - s)) s; $steps step runs, $built kernels built (GOOD and BAD among them), $(($(find "${RMAPBENCH_KERNEL_CACHE:-$HOME/.cache/rmapbench/kernels}" -maxdepth 1 -name 'git-*' -type d | wc -l) - builds0)) new in the cache"
	# started again: every step is reused, nothing is built or run
	local runs0
	runs0=$(sql "$db" "select count(*) from runs")
	"$BIN" --db "$db" bisect HEAD~5 HEAD --tree "$t" --config "$config" --metric rmap_vmas_per_walk \
		>"$tmp/$name.again" 2>&1 || fail "$name: the bisect again exited $?"
	[[ $(sql "$db" "select count(*) from runs") == "$runs0" ]] || fail "$name: the bisect again made new runs"
	grep -q "^bisect: the first bad commit: $want" "$tmp/$name.again" || fail "$name: the bisect again named another commit"
	echo "$name: again: every step reused, no run made"
}
series() { # the quilt series of make_series.sh, its 2nd patch the culprit
	local d=$tmp/series db=$tmp/series.db s e built
	"$top/tests/kernels/make_series.sh" "$d"
	s=$(date +%s)
	"$BIN" --db "$db" bisect --series "$d" --config "$config" --metric rmap_vmas_per_walk \
		>"$tmp/series.out" 2>"$tmp/series.err" ||
		fail "series: bisect exited $?: $(tail -n 5 "$tmp/series.err" "$tmp/series.out")"
	e=$(date +%s)
	grep -A1 "^bisect: the first bad commit:" "$tmp/series.out" | grep -q "step 2: mm: one anon_vma a fork family" ||
		fail "series: step 2 is not named: $(grep -A2 'first bad\|not named' "$tmp/series.out")"
	built=$(grep -c "built .* in [0-9]*s" "$tmp/series.err")
	((built <= 6)) || fail "series: $built kernels built (steps 0 and 4, then at most ceil(log2(4)) + 2)"
	echo "series: step 2 of 4 named in $((e - s)) s, $built kernels built"
}
one third 3 0
one fourth 4 2
series
echo "ok: bisect names the culprit at two positions, after an interrupt, and in a series"
