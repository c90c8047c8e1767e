#!/usr/bin/env bash
# git:PATH@REV kernels, the bad inputs: each refused with one line naming
# it, before anything is built (a small git tree that is no kernel will
# do, since the checks come first). The builds themselves are
# tests/kernels/git_builds.sh (make test-kernels).
set -u
source "$(dirname "$0")/../lib.sh"
export RMAPBENCH_KERNEL_CACHE=$tmp/cache
t=$tmp/tree
mkdir -p "$t"
git -C "$t" init -q
echo one >"$t/f"
git -C "$t" add f
git -C "$t" -c user.name=t -c user.email=t@t commit -q -m "first"
expect 1 "/nonexist is not a directory" "$BIN" kernel build git:/nonexist@HEAD
expect 1 "$tmp is not a git tree" "$BIN" kernel build "git:$tmp@HEAD"
expect 1 "nosuch does not resolve to a commit in $t" "$BIN" kernel build "git:$t@nosuch"
expect 1 "REV '--output=x' is not a revision" "$BIN" kernel build "git:$t@--output=x"
expect 1 "REV 'a;b' is not a revision" "$BIN" kernel build "git:$t@a;b"
expect 1 "is not a git kernel (git:PATH@REV)" "$BIN" kernel build "git:$t"
mkdir -p "$t/sub"
expect 1 "$t/sub is inside the git tree $t: name its top" "$BIN" kernel build "git:$t/sub@HEAD"
echo two >>"$t/f"
expect 1 "$t has uncommitted changes" "$BIN" kernel build "git:$t@HEAD"
git -C "$t" checkout -q f
[[ -z $(ls -A "$tmp/cache" 2>/dev/null | grep -v '^\.git-build$') ]] || fail "a refused spec left a kernel in the cache"
# the config's kernel lists take a git kernel, and still no path
printf 'vm_kernels = git:%s@HEAD\nvm_users = 2\n' "$t" >"$tmp/ok.conf"
"$BIN" --db "$tmp/db/x.db" run "$tmp/ok.conf" --dry-run >/dev/null 2>"$tmp/err" ||
	fail "vm_kernels = git:... refused: $(cat "$tmp/err")"
printf 'vm_kernels = ../x\n' >"$tmp/bad.conf"
expect 2 "'../x' is not a kernel label" "$BIN" --db "$tmp/db/x.db" run "$tmp/bad.conf" --dry-run
# a recipe over a tree needs its commit, and only it takes rev
kdir=$tmp/kernels
mkdir -p "$kdir"
cp -r "$top/kernels/." "$kdir/"
printf 'kind = build\nsource = git:%s\n' "$t" >"$kdir/mine.kernel"
RMAPBENCH_KERNELS_DIR=$kdir expect 1 "mine.kernel: source = git:$t needs 'rev = REV'" "$BIN" kernel build mine
# bisect: the same checks on GOOD and BAD, and their order
echo three >>"$t/f"
git -C "$t" -c user.name=t -c user.email=t@t commit -q -am "second"
cfg=$top/configs/nightly-kernels.conf
expect 2 "bisect: GOOD HEAD (" "$BIN" --db "$tmp/db/b.db" bisect HEAD HEAD~1 --tree "$t" --config "$cfg"
expect 2 "bisect: GOOD HEAD and BAD HEAD are the same commit: nothing to bisect" \
	"$BIN" --db "$tmp/db/b.db" bisect HEAD HEAD --tree "$t" --config "$cfg"
expect 2 "bisect: 'nosuch': nosuch does not resolve to a commit in $t" \
	"$BIN" --db "$tmp/db/b.db" bisect nosuch HEAD --tree "$t" --config "$cfg"
expect 2 "bisect: '$tmp': $tmp is not a git tree" "$BIN" --db "$tmp/db/b.db" bisect HEAD~1 HEAD --tree "$tmp" --config "$cfg"
expect 2 "$tmp/none.conf: cannot read" "$BIN" --db "$tmp/db/b.db" bisect HEAD~1 HEAD --tree "$t" --config "$tmp/none.conf"
[[ ! -e $tmp/db/b.db ]] || [[ $(sqlite3 "$tmp/db/b.db" "select count(*) from runs") == 0 ]] ||
	fail "a refused bisect recorded a run"
# bisect --series: the series file is hostile input, refused by line
s=$tmp/series
mkdir -p "$s"
sb() { "$BIN" --db "$tmp/db/b.db" bisect --series "$s" --config "$cfg" "$@"; }
expect 2 "$s/series is missing" sb
printf '# nothing\n\n' >"$s/series"
expect 2 "$s/series: no patch in it" sb
printf 'ok.patch\n../../etc/passwd\n' >"$s/series"
touch "$s/ok.patch"
expect 2 "$s/series:2: not a patch name inside $s" sb
grep -q passwd "$tmp/err" && fail "a rejected series line was echoed"
printf 'ok.patch -p1 extra\n' >"$s/series"
expect 2 "$s/series:1: not 'PATCH [-pN]'" sb
printf 'ok.patch -p;rm\n' >"$s/series"
expect 2 "$s/series:1: its second word is not -pN" sb
printf 'ok.patch\ngone.patch\n' >"$s/series"
expect 2 "$s/series:2: $s/gone.patch is missing" sb
ln -s /etc/passwd "$s/link.patch"
printf 'link.patch\n' >"$s/series"
expect 2 "$s/series:1: $s/link.patch is missing, not a regular file, or reached through a link" sb
expect 2 "no recipe" sb --recipe nosuch
for args in "--tree $t" "HEAD" "--recipe minimal --tree $t"; do # both, one step, a recipe without a series
	# shellcheck disable=SC2086 # args are words
	"$BIN" bisect --series "$s" --config "$cfg" $args >/dev/null 2>"$tmp/err" && fail "bisect --series with $args ran"
	[[ $? == 2 ]] && grep -q "^usage: rmapbench bisect" "$tmp/err" || fail "bisect --series with $args: $(head -n 2 "$tmp/err")"
done
printf 'ok.patch\n' >"$s/series"
expect 2 "bisect: --series: 'x1' is not a step number" sb 0 x1
[[ -z $(ls -A "$tmp/cache" 2>/dev/null | grep -v '^\.git-build$') ]] || fail "a refused series left something in the cache"
echo "git kernels: bad paths, revisions and dirty trees refused before a build; bisect's too"
