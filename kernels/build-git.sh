#!/usr/bin/env bash
# build-git.sh git:PATH@REV[+debug]: a kernel built from a commit of a git tree,
# tinyconfig + our fragments (or the recipe's own config), our patches on
# top if a recipe names any, config/debug.config with +debug. Prints the kernel's cache directory.
#
# Cached by what the image is made of: the commit's tree id, the config
# inputs and the patches; never the path or the time. One build tree per
# source tree (a --shared clone checked out at each revision, objects
# under O=) is kept and reused, so that a revision that changes one file
# rebuilds that file's objects and relinks; ccache under it when
# installed. Kept build trees are reaped oldest first past
# kernel_build_cache_gib (RMAPBENCH_KERNEL_BUILD_CACHE_GIB, default 8).
#
# The tree is code from a stranger: git reads it and make builds it as
# the builder (tree-in.sh under as_builder), never as root; root checks
# what came out (take_file) and copies it into the cache.
#
# A recipe with `source = git:PATH` and `rev = REV` runs this through
# build.sh with RB_LABEL, RB_FRAGMENTS, RB_PATCHES and RB_CONFIG set.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

spec=${1:?usage: build-git.sh git:PATH@REV[+debug]}
[[ $spec == git:*@* ]] || die "'$spec' is not a git kernel (git:PATH@REV)"
flavour=$(spec_flavour "$spec")
rest=${spec#git:}
rest=${rest%+"$flavour"}
path=${rest%@*}
rev=${rest##*@}
[[ -n $path && -n $rev ]] || die "'$spec': expected git:PATH@REV"
path=$(tree_check "$spec" "$path")
facts=$(RB_SHOW=$path as_builder --ro "$path" tree -- bash "$RB_IN/kernels/tree-in.sh" facts "$rev")
commit=$(sed -n 's/^commit //p' <<<"$facts")
tree=$(sed -n 's/^tree //p' <<<"$facts")
subject=$(sed -n 's/^subject //p' <<<"$facts" | head -n 1 | LC_ALL=C tr -cd '\040-\176' | cut -c1-60)
[[ $commit =~ ^[0-9a-f]{40}$ && $tree =~ ^[0-9a-f]{40}$ ]] || die "'$spec': the builder did not name a commit and a tree"
short=${commit:0:12}

read -r -a fragments <<<"${RB_FRAGMENTS-config/base.config config/lockstat.config}"
read -r -a patches <<<"${RB_PATCHES-}"
[[ -z $flavour ]] || fragments+=("config/$flavour.config")
userconfig=${RB_CONFIG-}
label=${RB_LABEL:-git-$short}
# what a kernel's Makefile needs (a tree without Kconfig is no kernel:
# the tests' fake one)
tools=(make gcc patch git)
[[ -f $path/Kconfig ]] && tools+=(flex bison bc)
for tool in "${tools[@]}"; do
	command -v "$tool" >/dev/null || die "$tool is missing (scripts/deps.sh --kernels installs it)"
done
[[ ! -f $path/Kconfig || -f /usr/include/libelf.h ]] ||
	die "libelf.h is missing: install package libelf-dev (scripts/deps.sh --kernels)"
inputs=()
for f in "${fragments[@]}"; do
	[[ -f $KERNELS_DIR/$f ]] || die "fragment $KERNELS_DIR/$f is missing"
	inputs+=("$KERNELS_DIR/$f")
done
for p in "${patches[@]}"; do
	[[ -f $KERNELS_DIR/$p ]] || die "patch $KERNELS_DIR/$p is missing"
done
[[ -z $userconfig || -f $userconfig ]] || die "config $userconfig is missing"
[[ -z $flavour || -z $userconfig ]] || die "'$spec': a kernel with its own config takes no +$flavour"

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
	write_info "$tmpd" "label=$short${flavour:++$flavour} $subject" "kind=git" "source=$path" "commit=$commit" "tree=$tree" \
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
# that two builds of one tree take turns. The lock is root's; w/ (the
# clone, objects, ccache, log) is the builder's.
mkdir -p "$CACHE/.git-build"
bt="$CACHE/.git-build/$(printf '%s' "$path" | sha256sum | cut -c1-16)"
mkdir -p "$bt"
exec 9>"$bt/lock"
flock 9
touch "$bt/lock" # its age orders the reaping
w=$bt/w
[[ -d $w ]] || say "$spec: a build tree for $path in $bt"
ensure_builder_dir "$w"
usercfg=0
if [[ -n $userconfig ]]; then
	rm -f "$w/config.user"
	cp -- "$userconfig" "$w/config.user"
	usercfg=1
fi
say "$spec: building $short ($subject) as uid $BUILDER_UID with $(nproc) jobs (log: $w/build.log)"
if ! RB_SHOW=$path as_builder_why --ro "$path" tree --rw "$w" build -- \
	bash "$RB_IN/kernels/tree-in.sh" build "$commit" "${fragments[*]}" "${patches[*]}" "$usercfg"; then
	take_file "$w/build.log" "$failed_log" $((64 << 20)) 2>/dev/null || true
	die "$spec ($short $subject): ${BUILDER_WHY:-the build failed} (log: $failed_log)"
fi
work="$CACHE/.out-$key"
rm -rf "$work"
mkdir -p "$work"
for f in bzImage config System.map release build_s; do
	take_file "$w/out/$f" "$work/$f" $((64 << 20))
done
take_file "$w/build.log" "$work/build.log" $((64 << 20))
release=$(head -c 200 "$work/release" | head -n 1)
[[ $release =~ ^[A-Za-z0-9._+~-]{1,64}$ ]] || die "$spec: the build gave no kernel release (a word of [A-Za-z0-9._+~-])"
[[ $(head -c 16 "$work/build_s") =~ ^[0-9]{1,7}$ ]] || die "$spec: the build gave no build time"
[[ $(dd if="$work/bzImage" bs=1 skip=514 count=4 2>/dev/null) == HdrS ]] ||
	die "$spec: the build's bzImage is not an x86 kernel image (no HdrS header)"
secs=$(cat "$work/build_s")
rm -rf "$image_dir" "$failed_log"
mv "$work" "$image_dir"
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
