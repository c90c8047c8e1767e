#!/usr/bin/env bash
# make test-bisect: `rmapbench bisect` names the commit that brought
# 2.6.33's anon_vma rules into a git history over linux-source-6.1, with
# the culprit at two positions (the 3rd of 5 commits; the 4th, with the
# 2nd not compiling), each within ceil(log2(5)) + 2 = 5 kernels built
# beyond GOOD and BAD; the second bisect of a tree, started again,
# reuses every step and builds nothing. RMAPBENCH_BISECT_TREES=DIR keeps
# the trees there (and reuses them). Times go to stdout for the record.
set -u
source "$(dirname "$0")/lib.sh"
trees=${RMAPBENCH_BISECT_TREES:-$tmp}
config=${RMAPBENCH_BISECT_CONFIG:-$top/configs/nightly-kernels.conf}

one() { # one NAME CULPRIT BROKEN
	local name=$1 culprit=$2 broken=$3 t=$trees/$1 db=$tmp/$1.db
	[[ -d $t/.git ]] || "$top/tests/kernels/make_git_tree.sh" "$t" "$culprit" "$broken" >/dev/null ||
		fail "could not make the tree $t"
	local want builds0 s e
	want=$(git -C "$t" log --format=%H --grep="2.6.33's anon_vma rules" -n 1)
	builds0=$(find "${RMAPBENCH_KERNEL_CACHE:-$HOME/.cache/rmapbench/kernels}" -maxdepth 1 -name 'git-*' -type d | wc -l)
	s=$(date +%s)
	"$BIN" --db "$db" bisect HEAD~5 HEAD --tree "$t" --config "$config" --metric rmap_vmas_per_walk \
		--junit "$tmp/$name.xml" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		fail "$name: bisect exited $?: $(tail -n 5 "$tmp/$name.err" "$tmp/$name.out")"
	e=$(date +%s)
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
one third 3 0
one fourth 4 2
echo "ok: bisect names the culprit at two positions"
