#!/usr/bin/env bash
# concurrent: builds into its own kernel cache, as nobody in a sandbox
# Strangers' code: a kernel tree, its .git/ and a patch series are built
# by the unprivileged builder, never by root. A fake "kernel" tree (a
# Makefile that makes a bzImage-shaped file) whose Makefile, fsmonitor,
# clean filter and hooks each try to leave a marker where root could
# write (a world-writable folder, /root, /tmp) and say who ran them; a
# series whose patches try .git/hooks, a link and a folder link. Nothing
# may run as root, and nothing may be written outside the cache.
source "$(dirname "$0")/../lib.sh"
[[ $(id -u) == 0 ]] || skip "needs root: the builder is another user"
command -v bwrap >/dev/null || fail "bwrap is missing (scripts/deps.sh installs bubblewrap)"
nobody=$(id -u nobody)
export RMAPBENCH_KERNEL_CACHE=$tmp/cache
chmod 755 "$tmp"
open=$tmp/open # a folder anyone may write: a marker here means escape
mkdir -m 1777 "$open"
mark="rbmark-$marker"
hostile="for f in $open/\$1 /root/$mark-\$1 /tmp/$mark-\$1 $top/$mark-\$1; do echo \"\$(id -u)\" >>\$f 2>/dev/null; done; true"

# fake_tree DIR: what build-git.sh and tree-in.sh ask of a kernel tree
fake_tree() {
	local d=$1
	mkdir -p "$d/scripts/kconfig"
	cat >"$d/Makefile" <<EOF
O ?= .
tinyconfig olddefconfig:
	@mkdir -p \$(O); touch \$(O)/.config
	@sh \$(CURDIR)/evil.sh make </dev/null
bzImage:
	@mkdir -p \$(O)/arch/x86/boot
	@head -c 514 /dev/zero >\$(O)/arch/x86/boot/bzImage; printf 'HdrS' >>\$(O)/arch/x86/boot/bzImage
	@echo "built-by-uid=\$\$(id -u)" >\$(O)/System.map
	@sh \$(CURDIR)/evil.sh make </dev/null
kernelrelease:
	@echo 6.1.0-fake
EOF
	cat >"$d/scripts/kconfig/merge_config.sh" <<'EOF'
#!/bin/sh
# -m -O DIR BASE FRAGMENT...: the fragments appended to BASE
shift; shift; out=$1; shift; base=$1; shift
cat "$@" >>"$base"
EOF
	chmod +x "$d/scripts/kconfig/merge_config.sh"
	# as a filter it must pass its input on
	printf '%s\n' "#!/bin/sh" "$hostile" "exec cat" >"$d/evil.sh"
	chmod +x "$d/evil.sh"
}

# 1. A hostile git tree of root's: its config names an fsmonitor and a
# clean filter, its hooks a post-checkout, its Makefile the rest.
t=$tmp/tree
fake_tree "$t"
echo '* filter=evil' >"$t/.gitattributes"
git -C "$t" init -q
git -C "$t" add -A
git -C "$t" -c user.name=t -c user.email=t@t commit -q -m "a fake kernel"
git -C "$t" config core.fsmonitor "$t/evil.sh fsmonitor"
git -C "$t" config filter.evil.clean "$t/evil.sh clean"
git -C "$t" config filter.evil.smudge "$t/evil.sh smudge"
git -C "$t" config log.showSignature true
git -C "$t" config gpg.program "$t/evil.sh gpg"
for h in post-checkout post-commit pre-commit; do
	cp "$t/evil.sh" "$t/.git/hooks/$h"
done
chmod -R a+rX "$t"
"$BIN" kernel build "git:$t@HEAD" >"$tmp/out" 2>"$tmp/err" || fail "the fake tree did not build: $(tail -n 3 "$tmp/err"; cat "$tmp"/cache/*.failed.log)"
img=$(ls "$tmp"/cache/gtree-*/System.map)
grep -qx "built-by-uid=$nobody" "$img" || fail "the tree's Makefile did not run as the builder: $(cat "$img")"
grep -q "as uid $nobody" "$tmp/err" || fail "the build did not say who built it"
for f in "$open"/* /root/$mark-* /tmp/$mark-* "$top"/$mark-*; do
	[[ -e $f ]] || continue
	fail "the tree's code wrote $f (as uid $(head -n 1 "$f"))"
done
# nothing of the builder's is left running
pgrep -u "$nobody" -f "$tmp" >/dev/null && fail "a builder process outlived the build"

# 2. A tree of another user's is refused by our check, even where git's
# own is switched off (safe.directory = * in the global config).
o=$tmp/other
cp -a "$t" "$o"
chown -R "$nobody" "$o"
printf '[safe]\n\tdirectory = *\n' >"$tmp/gitconfig"
GIT_CONFIG_GLOBAL=$tmp/gitconfig expect 1 "$o belongs to uid $nobody, not to you (uid 0)" \
	"$BIN" kernel build "git:$o@HEAD"
expect 1 "REV '^HEAD' is not a revision" "$BIN" kernel build "git:$t@^HEAD"

# 3. A hostile series, on a recipe whose "source package" is a fake tree
# in a tarball (bash stands in for linux-source: dpkg knows its version).
kd=$tmp/kernels
cp -a "$top/kernels" "$kd"
printf 'kind = build\nsource = bash\nfragments = config/base.config\n' >"$kd/fake.kernel"
src=$tmp/src
mkdir -p "$src/bash"
fake_tree "$src/bash"
printf '/*\n' >"$src/bash/.gitignore"
tar -cJf "$src/bash.tar.xz" -C "$src" bash
export RMAPBENCH_KERNELS_DIR=$kd RMAPBENCH_KERNEL_SRC_DIR=$src
s=$tmp/series
mkdir -p "$s/sub"
good() { printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+%s\n' "$1" "$2"; }
good mm/note.txt note >"$s/0001-note.patch"
good .git/hooks/post-commit "$hostile" >"$s/0002-hook.patch"
printf 'diff --git a/x b/.git/config\nnew file mode 100644\n' >"$s/0003-gitdiff.patch"
good ../outside.txt x >"$s/0004-up.patch"
{ printf 'diff --git a/l b/l\nnew file mode 120000\n'; good l /etc; } >"$s/0005-symlink.patch"
printf 'tinyconfig:\n\techo evil\n' >"$s/sub/x.patch"
st() { "$kd/series-tree.sh" fake "$s"; }
for p in 0002-hook 0003-gitdiff 0004-up 0005-symlink; do
	printf '0001-note.patch\n%s.patch\n' "$p" >"$s/series"
	expect 1 "$s/$p.patch:" st
	grep -q "writes in .git/, outside the tree or a symlink: refused" "$tmp/err" || fail "$p: $(cat "$tmp/err")"
done
ln -s /etc/shadow "$s/shadow"
printf 'shadow\n' >"$s/series"
expect 1 "$s/series:1: $s/shadow is missing, not a regular file, or reached through a link" st
rm "$s/series"
ln -s /etc/shadow "$s/series"
expect 1 "$s/series is not a regular file (links are refused)" st
grep -q 'root:' "$tmp/err" && fail "a line of /etc/shadow was echoed"
rm "$s/series"
printf 'root:$6$secret$hash:19000:0:99999:7:::\n' >"$s/series"
expect 1 "$s/series:1: not a patch name inside $s" st
grep -q 'secret' "$tmp/err" && fail "a rejected series line was echoed"
mv "$s/sub" "$tmp/outside"
ln -s "$tmp/outside" "$s/sub"
printf 'sub/x.patch\n' >"$s/series"
expect 1 "$s/series:1: $s/sub/x.patch is missing, not a regular file, or reached through a link" st
# the good series: a history made by the builder, then a step built
printf '0001-note.patch\n' >"$s/series"
st >"$tmp/st.out" 2>"$tmp/err" || fail "the good series was refused: $(cat "$tmp/err")"
h=$(head -n 1 "$tmp/st.out")
[[ $(stat -c %u "$h/.git") == "$nobody" ]] || fail "the series history was not made by the builder"
git -C "$h" -c safe.directory='*' log --format=%s | grep -q "step 1: 0001-note.patch" || fail "no step 1 in $h"
"$BIN" kernel build "git:$h@step-1" >/dev/null 2>"$tmp/err" || fail "step 1 did not build: $(tail -n 2 "$tmp/err")"
for f in "$open"/* /root/$mark-* /tmp/$mark-* "$top"/$mark-*; do
	[[ -e $f ]] && fail "the series wrote $f"
done
echo "hostile trees and series: built as uid $nobody, refused by name, nothing written outside the cache"
