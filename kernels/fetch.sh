#!/usr/bin/env bash
# fetch.sh LABEL: a stock kernel from a Debian package, downloaded with
# apt-get download and unpacked into the cache (never installed on the
# host). Prints the kernel's cache directory.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

label=${1:?usage: fetch.sh LABEL}
recipe=$(recipe_path "$label")
meta=$(recipe_require "$recipe" package)
read -r -a want_modules <<<"$(recipe_get "$recipe" modules)"

command -v apt-get >/dev/null || die "apt-get is missing: stock kernels come from Debian packages"
# The meta package names the versioned image package it depends on.
image_package() {
	(apt-cache depends "$meta" 2>/dev/null || true) | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1
}
pkg=$(image_package)
# A fresh machine may have no package lists yet: fetch them once.
if [[ -z $pkg && $(id -u) -eq 0 ]]; then
	say "$meta is unknown to apt: apt-get update"
	apt-get update -qq >/dev/null 2>&1 || true
	pkg=$(image_package)
fi
[[ -n $pkg ]] || die "package $meta is unknown to apt (after apt-get update)"
version=$( (apt-cache policy "$pkg" 2>/dev/null || true) | sed -n 's/^ *Candidate: //p')
[[ -n $version && $version != "(none)" ]] || die "package $pkg has no installable version"

key="$label-$(echo "$pkg $version" | sha256sum | cut -c1-12)"
dir="$CACHE/$key"
if [[ -f $dir/kernel.info ]]; then
	ln -sfn "$key" "$CACHE/$label"
	echo "$dir"
	exit 0
fi
mkdir -p "$CACHE"
tmp=$(mktemp -d "$CACHE/.fetch-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
say "downloading $pkg $version"
(cd "$tmp" && apt-get download "$pkg=$version") >"$tmp/fetch.log" 2>&1 ||
	die "apt-get download $pkg=$version failed: $(grep -E '^E:' "$tmp/fetch.log" | head -n 1)"
deb=$(ls "$tmp"/*.deb)
mkdir -p "$tmp/root"
dpkg-deb -x "$deb" "$tmp/root" || die "$deb: dpkg-deb could not unpack it"
image=$(ls "$tmp"/root/boot/vmlinuz-* 2>/dev/null | head -n 1)
[[ -n $image ]] || die "$deb has no boot/vmlinuz-*"
release=${image##*/vmlinuz-}
moddir="$tmp/root/lib/modules/$release"
command -v depmod >/dev/null || die "depmod is missing (package kmod)"
depmod -b "$tmp/root" "$release" || die "depmod failed for $release"

mkdir -p "$tmp/out"
mv "$image" "$tmp/out/vmlinuz"
mv "$tmp/root/boot/config-$release" "$tmp/out/config"
mv "$tmp/root/lib/modules" "$tmp/out/modules"
mods=$(modules_in_order "$tmp/out/modules/$release" "${want_modules[@]}")
mv "$tmp/out" "$dir"
# Paths were resolved in the staging directory: point them at the cache.
mods=${mods//$tmp\/out/$dir}
write_info "$dir" "label=$label" "kind=package" "package=$pkg" "version=$version" "release=$release" \
	"image=$dir/vmlinuz" "config_hash=$(config_hash "$dir/config")" "modules=$mods"
ln -sfn "$key" "$CACHE/$label"
say "$label is $pkg $version ($release)"
echo "$dir"
