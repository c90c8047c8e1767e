#!/usr/bin/env bash
# series-tree.sh RECIPE[+debug] DIR: a git history for bisecting a quilt-style
# patch series: the base commit is RECIPE's source with RECIPE's patches
# (tagged step-0), then one commit a patch of DIR/series in its order
# (step-1 .. step-N), so that step N is the first N patches applied.
# Cached by what the history is made of (the source version, the
# recipe's patches, the series and its patches). Prints the tree's path,
# then the recipe's fragments, config/debug.config too for RECIPE+debug
# (the steps are built with them).
#
# DIR/series: one patch a line, a name relative to DIR, optionally
# followed by -pN (default -p1); '#' comments and blank lines skipped, as
# quilt reads it. A patch that does not apply is an error naming its line.
# The series is code from a stranger: root only checks it (no links, no
# patch that writes in .git/ or leaves DIR, no line echoed); the history
# is made by the builder (tree-in.sh series), never as root.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

label=${1:?usage: series-tree.sh RECIPE[+debug] DIR}
sdir=${2:?usage: series-tree.sh RECIPE[+debug] DIR}
flavour=$(spec_flavour "$label")
recipe=$(recipe_path "${label%+"$flavour"}")
srcpkg=$(recipe_require "$recipe" source)
[[ $srcpkg != git:* ]] || die "--series: recipe $recipe builds a git tree: a series goes on a source package recipe"
read -r -a rpatches <<<"$(recipe_get "$recipe" patches)"
fragments=$(recipe_get "$recipe" fragments)
[[ -z $flavour ]] || fragments+=" config/$flavour.config"
[[ -d $sdir ]] || die "--series: $sdir is not a directory"
sdir=$(cd -- "$sdir" && pwd -P)
series=$sdir/series
[[ -e $series || -L $series ]] || die "--series: $series is missing (one patch name a line, as quilt keeps it)"
[[ -f $series && ! -L $series ]] || die "--series: $series is not a regular file (links are refused)"
(($(stat -c %s -- "$series") <= 1 << 20)) || die "--series: $series is over 1 MiB"

# in_dir NAME: DIR/NAME is a regular file reached through folders alone,
# no component of it a link.
in_dir() {
	local at=$sdir part
	local -a parts
	IFS=/ read -r -a parts <<<"$1"
	for part in "${parts[@]}"; do
		at=$at/$part
		[[ ! -L $at ]] || return 1
	done
	[[ -f $at ]]
}

# What a patch writes: every file name in its headers (traditional,
# context, git: rename, copy, Index), none of them in .git/, absolute or
# leaving DIR; no symlink made. Prints the first offence's line number.
patch_offence() {
	LC_ALL=C awk '
	function bad(name,   n, i, c) {
		sub(/\t.*/, "", name)
		if (name == "/dev/null") return 0
		if (name ~ /^\//) return 1
		n = split(name, c, "/")
		for (i = 1; i <= n; i++) if (c[i] == ".git" || c[i] == "..") return 1
		return 0
	}
	/^(---|\+\+\+|\*\*\*) / { if (bad(substr($0, 5))) { print NR; exit } }
	/^diff --git / { if (bad($3) || bad($4)) { print NR; exit } }
	/^(rename|copy) (from|to) / { if (bad(substr($0, index($0, $2) + length($2) + 1))) { print NR; exit } }
	/^Index: / { if (bad(substr($0, 8))) { print NR; exit } }
	/^(new file mode|new mode) 120000/ { print NR; exit }' "$1"
}

# The series, read as bounded, hostile input: names stay inside DIR, and
# a rejected line is said by its number, never echoed.
names=() strips=() lines=()
n=0
while IFS= read -r line || [[ -n $line ]]; do
	n=$((n + 1))
	((${#line} <= 1000)) || die "$series:$n: a line over 1000 bytes"
	line=${line%%#*}
	read -r -a w <<<"$line"
	((${#w[@]})) || continue
	((${#w[@]} <= 2)) || die "$series:$n: not 'PATCH [-pN]' (more than two words)"
	name=${w[0]} strip=${w[1]:--p1}
	[[ $name =~ ^[A-Za-z0-9._+-][A-Za-z0-9._+/-]*$ && $name != *..* && ${#name} -le 200 ]] ||
		die "$series:$n: not a patch name inside $sdir (letters, digits, ._+-/ and no '..')"
	[[ $strip =~ ^-p[0-9]$ ]] || die "$series:$n: its second word is not -pN"
	in_dir "$name" || die "$series:$n: $sdir/$name is missing, not a regular file, or reached through a link"
	(($(stat -c %s -- "$sdir/$name") <= 64 << 20)) || die "$series:$n: $sdir/$name is over 64 MiB"
	off=$(patch_offence "$sdir/$name")
	[[ -z $off ]] || die "$sdir/$name:$off: writes in .git/, outside the tree or a symlink: refused"
	((${#names[@]} < 1000)) || die "$series:$n: more than 1000 patches"
	names+=("$name") strips+=("$strip") lines+=("$n")
done <"$series"
((${#names[@]})) || die "$series: no patch in it"
for p in "${rpatches[@]}"; do
	[[ -f $KERNELS_DIR/$p ]] || die "$recipe: patch $KERNELS_DIR/$p is missing"
done
tarball=${RMAPBENCH_KERNEL_SRC_DIR:-/usr/src}/$srcpkg.tar.xz
srcver=$(dpkg-query -W -f='${Version}' "$srcpkg" 2>/dev/null || true)
[[ -n $srcver && -f $tarball ]] || die "$tarball is missing: install package $srcpkg (scripts/deps.sh --kernels)"

hash=$( {
	echo "$srcpkg $srcver"
	for p in "${rpatches[@]}"; do
		echo "== recipe $p"
		cat "$KERNELS_DIR/$p"
	done
	for i in "${!names[@]}"; do
		echo "== series ${names[i]} ${strips[i]}"
		cat "$sdir/${names[i]}"
	done
} | sha256sum | cut -c1-12)
tree=$CACHE/.series/$label-$hash
if [[ -f $tree.done && -d $tree && ! -L $tree ]]; then
	say "--series: $series on $label: cached history, $tree"
	printf '%s\n%s\n' "$tree" "$fragments"
	exit 0
fi
mkdir -p "$CACHE/.series"
work=$tree.tmp
rm -rf "$work" "$tree" "$tree.done"
ensure_builder_dir "$work"
trap 'rm -rf "$work"' EXIT
say "--series: unpacking $srcpkg $srcver for $label + ${#names[@]} patches, as uid $BUILDER_UID"
steps=()
for i in "${!names[@]}"; do steps+=("${strips[i]}:${names[i]}"); done
if ! as_builder_why --ro "$(dirname "$tarball")" srcpkg --ro "$sdir" series --rw "$work" build -- \
	bash "$RB_IN/kernels/tree-in.sh" series "$RB_IN/srcpkg/${tarball##*/}" "$label" "${rpatches[*]}" \
	"${steps[@]}"; then
	# "step N: NAME ..." said by the series line it came from
	if [[ $BUILDER_WHY =~ ^step\ ([0-9]+):\ (.*)$ ]]; then
		die "$series:${lines[BASH_REMATCH[1] - 1]}: ${BASH_REMATCH[2]}"
	fi
	die "--series: ${BUILDER_WHY:-the history could not be made}"
fi
mv "$work" "$tree"
touch "$tree.done"
trap - EXIT
say "--series: $series on $label: ${#names[@]} steps in $tree"
printf '%s\n%s\n' "$tree" "$fragments"
