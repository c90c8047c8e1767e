#!/usr/bin/env bash
# build.sh LABEL[+debug]: a kernel built from Debian's linux-source-6.1 with the
# recipe's config fragments (on top of tinyconfig; +debug adds
# config/debug.config) and patches. Cached by a
# hash of the source version, the fragments and the patches: a second
# request with nothing changed reuses the image. The build log is kept in
# the cache directory. Prints the kernel's cache directory.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

label=${1:?usage: build.sh LABEL[+debug]}
flavour=$(spec_flavour "$label")
recipe=$(recipe_path "${label%+"$flavour"}")
srcpkg=$(recipe_require "$recipe" source)
read -r -a fragments <<<"$(recipe_get "$recipe" fragments)"
[[ -z $flavour ]] || fragments+=("config/$flavour.config")
read -r -a patches <<<"$(recipe_get "$recipe" patches)"
# A recipe over a git tree: that commit, built incrementally (build-git.sh).
if [[ $srcpkg == git:* ]]; then
	rev=$(recipe_require "$recipe" rev)
	config=$(recipe_get "$recipe" config)
	[[ -z $config || $config == /* ]] || config=$KERNELS_DIR/$config
	[[ -z $flavour || -z $config ]] ||
		die "$recipe: a recipe with its own config takes no +$flavour (put config/$flavour.config's lines in that config)"
	RB_LABEL=$label RB_FRAGMENTS="${fragments[*]}" RB_PATCHES="${patches[*]}" RB_CONFIG=$config \
		exec "$KERNELS_DIR/build-git.sh" "$srcpkg@$rev"
fi

tarball=${RMAPBENCH_KERNEL_SRC_DIR:-/usr/src}/$srcpkg.tar.xz
srcver=$(dpkg-query -W -f='${Version}' "$srcpkg" 2>/dev/null || true)
[[ -n $srcver && -f $tarball ]] ||
	die "$tarball is missing: install package $srcpkg (scripts/deps.sh --kernels)"
for tool in make gcc flex bison bc patch; do
	command -v "$tool" >/dev/null || die "$tool is missing (scripts/deps.sh --kernels installs it)"
done
[[ -f /usr/include/libelf.h ]] || die "libelf.h is missing: install package libelf-dev (scripts/deps.sh --kernels)"

inputs=()
for f in "${fragments[@]}"; do
	[[ -f $KERNELS_DIR/$f ]] || die "$recipe: fragment $KERNELS_DIR/$f is missing"
	inputs+=("$KERNELS_DIR/$f")
done
for p in "${patches[@]}"; do
	[[ -f $KERNELS_DIR/$p ]] || die "$recipe: patch $KERNELS_DIR/$p is missing"
	inputs+=("$KERNELS_DIR/$p")
done
# The key: what the image is made of, never when or where.
hash=$( {
	echo "$srcpkg $srcver"
	for f in "${inputs[@]}"; do
		echo "== ${f#$KERNELS_DIR/}"
		cat "$f"
	done
} | sha256sum | cut -c1-12)
key="$label-$hash"
dir="$CACHE/$key"
if [[ -f $dir/kernel.info ]]; then
	ln -sfn "$key" "$CACHE/$label"
	say "$label: cached, $dir"
	echo "$dir"
	exit 0
fi

mkdir -p "$CACHE"
work="$CACHE/.build-$key"
rm -rf "$work"
mkdir -p "$work"
log="$work/build.log"
failed_log="$CACHE/$key.failed.log"
# A failed build keeps its log beside the cache entry it would have made,
# and drops the unpacked source (over a gigabyte).
fail_build() {
	trap - ERR
	cp "$log" "$failed_log" 2>/dev/null || true
	rm -rf "$work"
	die "$*"
}
trap 'fail_build "$label: the build stopped at line $LINENO of build.sh (log: $failed_log)"' ERR
say "$label: unpacking $srcpkg $srcver"
tar -xf "$tarball" -C "$work"
src="$work/$srcpkg"
for p in "${patches[@]}"; do
	if ! patch -d "$src" -p1 --forward --batch --no-backup-if-mismatch <"$KERNELS_DIR/$p" >>"$log" 2>&1; then
		fail_build "patch $KERNELS_DIR/$p does not apply to $srcpkg $srcver: $(grep -m1 -iE 'fail|reject|malformed|only garbage' "$log")"
	fi
done
obj="$work/obj"
jobs=$(nproc)
say "$label: configuring (tinyconfig + ${fragments[*]})"
{
	make -C "$src" O="$obj" tinyconfig
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${inputs[@]:0:${#fragments[@]}}")
	make -C "$src" O="$obj" olddefconfig
} >>"$log" 2>&1
# A fragment line that olddefconfig dropped: refused.
why=$(fragments_check "$obj/.config" "${fragments[@]}") || fail_build "$why"
say "$label: building bzImage with $jobs jobs (about 9 minutes on 2 cores with lock_stat; log: $log)"
if ! make -C "$src" O="$obj" -j"$jobs" bzImage >>"$log" 2>&1; then
	fail_build "$label: the build failed: $(grep -m1 -E 'error|Error' "$log") (log: $failed_log)"
fi
release=$(make -s -C "$src" O="$obj" kernelrelease 2>/dev/null | tail -n 1)
mkdir -p "$work/out"
cp "$obj/arch/x86/boot/bzImage" "$work/out/bzImage"
cp "$obj/.config" "$work/out/config"
cp "$obj/System.map" "$work/out/System.map"
mv "$log" "$work/out/build.log"
rm -rf "$dir" "$failed_log"
mv "$work/out" "$dir"
rm -rf "$work"
trap - ERR
write_info "$dir" "label=$label" "kind=build" "source=$srcpkg $srcver" "patches=${patches[*]}" \
	"fragments=${fragments[*]}" "release=$release" "image=$dir/bzImage" \
	"config_hash=$(config_hash "$dir/config")" "modules="
ln -sfn "$key" "$CACHE/$label"
say "$label: built $release in $dir"
echo "$dir"
