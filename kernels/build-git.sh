#!/usr/bin/env bash
# build-git.sh git:PATH@REV: a kernel built from a commit of a git tree,
# tinyconfig + our fragments (or the recipe's own config), our patches on
# top if a recipe names any. Prints the kernel's cache directory.
#
# Cached by what the image is made of: the commit's tree id, the config
# inputs and the patches; never the path or the time. One build tree per
# source tree (a --shared clone checked out at each revision, objects
# under O=) is kept and reused, so that a revision that changes one file
# rebuilds that file's objects and relinks; ccache under it when
# installed. Kept build trees are reaped oldest first past
# kernel_build_cache_gib (RMAPBENCH_KERNEL_BUILD_CACHE_GIB, default 8).
#
# A recipe with `source = git:PATH` and `rev = REV` runs this through
# build.sh with RB_LABEL, RB_FRAGMENTS, RB_PATCHES and RB_CONFIG set.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

spec=${1:?usage: build-git.sh git:PATH@REV}
[[ $spec == git:*@* ]] || die "'$spec' is not a git kernel (git:PATH@REV)"
rest=${spec#git:}
path=${rest%@*}
rev=${rest##*@}
[[ -n $path && -n $rev ]] || die "'$spec': expected git:PATH@REV"
path=$(git_tree "$spec" "$path")
commit=$(git_commit "$spec" "$path" "$rev")
tree=$(git -C "$path" rev-parse "$commit^{tree}")
short=${commit:0:12}
# the subject names the commit in labels and reports: one line, printable,
# cut at a word to fit a label (64 bytes) with the short hash
subject=$(git -C "$path" log -1 --format=%s "$commit" | LC_ALL=C tr -cd '\040-\176' |
	awk '{ s = $0; if (length(s) > 48) { s = substr(s, 1, 48); sub(/ [^ ]*$/, "", s); s = s "..." } print s }')

read -r -a fragments <<<"${RB_FRAGMENTS-config/base.config config/lockstat.config}"
read -r -a patches <<<"${RB_PATCHES-}"
userconfig=${RB_CONFIG-}
label=${RB_LABEL:-git-$short}
for tool in make gcc flex bison bc patch git; do
	command -v "$tool" >/dev/null || die "$tool is missing (scripts/deps.sh --kernels installs it)"
done
[[ -f /usr/include/libelf.h ]] || die "libelf.h is missing: install package libelf-dev (scripts/deps.sh --kernels)"
inputs=()
for f in "${fragments[@]}"; do
	[[ -f $KERNELS_DIR/$f ]] || die "fragment $KERNELS_DIR/$f is missing"
	inputs+=("$KERNELS_DIR/$f")
done
for p in "${patches[@]}"; do
	[[ -f $KERNELS_DIR/$p ]] || die "patch $KERNELS_DIR/$p is missing"
done
[[ -z $userconfig || -f $userconfig ]] || die "config $userconfig is missing"

hash=$( {
	echo "tree $tree"
	if [[ -n $userconfig ]]; then
		echo "== config"
		cat "$userconfig"
	else
		for f in "${fragments[@]}"; do
			echo "== $f"
			cat "$KERNELS_DIR/$f"
		done
	fi
	for p in "${patches[@]}"; do
		echo "== $p"
		cat "$KERNELS_DIR/$p"
	done
} | sha256sum | cut -c1-12)
# The image is the tree's (gtree-HASH: bzImage, config, System.map, its
# build log); each commit that names it has a kernel.info of its own
# (git-SHORT-HASH), so that two commits with one tree (a revert, a merge
# that changes nothing, the same source in two repositories) share the
# build and keep their own labels.
key="git-$short-$hash"
dir="$CACHE/$key"
image_dir="$CACHE/gtree-$hash"
if [[ -f $dir/kernel.info ]]; then
	say "$spec: cached ($short $subject), $dir"
	echo "$dir"
	exit 0
fi
commit_info() { # the commit's kernel.info over the tree's image; prints its dir
	local tmpd="$CACHE/.info-$key-$$"
	rm -rf "$tmpd"
	mkdir -p "$tmpd"
	write_info "$tmpd" "label=$short $subject" "kind=git" "source=$path" "commit=$commit" "tree=$tree" \
		"patches=${patches[*]}" "fragments=${fragments[*]}" "release=$(cat "$image_dir/release")" \
		"image=$image_dir/bzImage" "config_hash=$(config_hash "$image_dir/config")" "modules=" \
		"build_s=$(cat "$image_dir/build_s")"
	rm -rf "$dir"
	mv "$tmpd" "$dir"
}
# A commit that did not build will not build again from the same inputs:
# a bisect started again skips it at once.
failed_log="$CACHE/$key.failed.log"
if [[ -f $failed_log ]]; then
	die "$spec ($short $subject) did not build before (log: $failed_log; remove it to try again)"
fi
if [[ -f $image_dir/bzImage && -f $image_dir/release ]]; then
	commit_info
	say "$spec: cached: its tree's image, $image_dir ($short $subject)"
	echo "$dir"
	exit 0
fi

# One build tree per source tree, by its path; a lock per build tree so
# that two builds of one tree take turns.
mkdir -p "$CACHE/.git-build"
bt="$CACHE/.git-build/$(printf '%s' "$path" | sha256sum | cut -c1-16)"
mkdir -p "$bt"
exec 9>"$bt/lock"
flock 9
touch "$bt/lock" # its age orders the reaping
src="$bt/src"
obj="$bt/obj"
log="$bt/build.log"
: >"$log"
fail_build() {
	trap - ERR
	cp "$log" "$failed_log" 2>/dev/null || true
	die "$*"
}
trap 'fail_build "$spec ($short $subject): the build stopped at line $LINENO of build-git.sh (log: $failed_log)"' ERR

if [[ ! -d $src/.git ]]; then
	rm -rf "$src" "$obj"
	say "$spec: a build tree for $path in $bt"
	git clone -q --shared --no-checkout "$path" "$src" >>"$log" 2>&1
fi
# the commit is in the source's objects, which the --shared clone reads
say "$spec: checking out $short ($subject)"
{
	git -C "$src" checkout -q -f --detach "$commit"
	git -C "$src" clean -q -fdx
} >>"$log" 2>&1
for p in "${patches[@]}"; do
	if ! patch -d "$src" -p1 --forward --batch --no-backup-if-mismatch <"$KERNELS_DIR/$p" >>"$log" 2>&1; then
		fail_build "patch $KERNELS_DIR/$p does not apply to $short ($subject): $(grep -m1 -iE 'fail|reject|malformed|only garbage' "$log")"
	fi
done

cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_DIR=$bt/ccache
fi
# The config is made beside the build and replaces .config only when it
# differs: the same config keeps every object the last revision built.
mkdir -p "$obj"
cfg="$bt/config.new"
rm -rf "$bt/cfg"
mkdir -p "$bt/cfg"
{
	if [[ -n $userconfig ]]; then
		cp "$userconfig" "$bt/cfg/.config"
	else
		make -C "$src" O="$bt/cfg" CC="$cc" tinyconfig
		(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$bt/cfg" "$bt/cfg/.config" "${inputs[@]}")
	fi
	make -C "$src" O="$bt/cfg" CC="$cc" olddefconfig
} >>"$log" 2>&1
cp "$bt/cfg/.config" "$cfg"
if [[ -z $userconfig ]]; then
	why=$(fragments_check "$cfg" "${fragments[@]}") || fail_build "$why (on $short)"
fi
cmp -s "$cfg" "$obj/.config" || cp "$cfg" "$obj/.config"
jobs=$(nproc)
say "$spec: building $short ($subject) with $jobs jobs (log: $log)"
s=$(date +%s)
if ! make -C "$src" O="$obj" CC="$cc" -j"$jobs" bzImage >>"$log" 2>&1; then
	fail_build "$spec ($short $subject) does not build: $(grep -m1 -E 'error|Error' "$log" | cut -c1-200) (log: $failed_log)"
fi
secs=$(($(date +%s) - s))
release=$(make -s -C "$src" O="$obj" kernelrelease 2>/dev/null | tail -n 1)
work="$CACHE/.out-$key"
rm -rf "$work"
mkdir -p "$work"
cp "$obj/arch/x86/boot/bzImage" "$obj/.config" "$obj/System.map" "$work/"
mv "$work/.config" "$work/config"
cp "$log" "$work/build.log"
echo "$release" >"$work/release"
echo "$secs" >"$work/build_s"
rm -rf "$image_dir" "$failed_log"
mv "$work" "$image_dir"
trap - ERR
commit_info
exec 9>&-

# Build trees past the cap go, oldest first, never the one just used.
cap=${RMAPBENCH_KERNEL_BUILD_CACHE_GIB:-8}
[[ $cap =~ ^[0-9]+$ ]] || die "kernel_build_cache_gib: '$cap' is not a whole number of GiB"
while :; do
	used=$(du -s --block-size=1G "$CACHE/.git-build" 2>/dev/null | cut -f1)
	((used > cap)) || break
	oldest=$(ls -1tr "$CACHE"/.git-build/*/lock 2>/dev/null | grep -v "^$bt/lock$" | head -n 1)
	[[ -n $oldest ]] || break
	say "reaping the build tree $(dirname "$oldest") (build trees use $used GiB, the cap is $cap)"
	rm -rf "$(dirname "$oldest")"
done
say "$spec: built $release ($short $subject) in ${secs}s, $dir"
echo "$dir"
