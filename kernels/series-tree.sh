#!/usr/bin/env bash
# series-tree.sh RECIPE DIR: a git history for bisecting a quilt-style
# patch series: the base commit is RECIPE's source with RECIPE's patches
# (tagged step-0), then one commit a patch of DIR/series in its order
# (step-1 .. step-N), so that step N is the first N patches applied.
# Cached by what the history is made of (the source version, the
# recipe's patches, the series and its patches). Prints the tree's path,
# then the recipe's fragments (the steps are built with them).
#
# DIR/series: one patch a line, a name relative to DIR, optionally
# followed by -pN (default -p1); '#' comments and blank lines skipped, as
# quilt reads it. A patch that does not apply is an error naming its line.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

label=${1:?usage: series-tree.sh RECIPE DIR}
sdir=${2:?usage: series-tree.sh RECIPE DIR}
recipe=$(recipe_path "$label")
srcpkg=$(recipe_require "$recipe" source)
[[ $srcpkg != git:* ]] || die "--series: recipe $recipe builds a git tree: a series goes on a source package recipe"
read -r -a rpatches <<<"$(recipe_get "$recipe" patches)"
fragments=$(recipe_get "$recipe" fragments)
[[ -d $sdir ]] || die "--series: $sdir is not a directory"
sdir=$(cd -- "$sdir" && pwd -P)
series=$sdir/series
[[ -f $series ]] || die "--series: $series is missing (one patch name a line, as quilt keeps it)"

# The series, read as bounded, hostile input: names stay inside DIR.
names=() strips=() lines=()
n=0
while IFS= read -r line || [[ -n $line ]]; do
	n=$((n + 1))
	line=${line%%#*}
	read -r -a w <<<"$line"
	((${#w[@]})) || continue
	((${#w[@]} <= 2)) || die "$series:$n: expected 'PATCH [-pN]', got '${line:0:80}'"
	name=${w[0]} strip=${w[1]:--p1}
	[[ $name =~ ^[A-Za-z0-9._+-][A-Za-z0-9._+/-]*$ && $name != *..* && ${#name} -le 200 ]] ||
		die "$series:$n: '${name:0:80}' is not a patch name inside $sdir (letters, digits, ._+-/ and no '..')"
	[[ $strip =~ ^-p[0-9]$ ]] || die "$series:$n: '${strip:0:20}' is not -pN"
	[[ -f $sdir/$name && ! -L $sdir/$name ]] || die "$series:$n: $sdir/$name is missing (or a link)"
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
if [[ -f $tree/.git/rmapbench-series-done ]]; then
	say "--series: $series on $label: cached history, $tree"
	printf '%s\n%s\n' "$tree" "$fragments"
	exit 0
fi
mkdir -p "$CACHE/.series"
work=$tree.tmp
rm -rf "$work" "$tree"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
say "--series: unpacking $srcpkg $srcver for $label + ${#names[@]} patches"
source_tree "$work" "$tarball"
cd "$work"
for p in "${rpatches[@]}"; do
	patch -p1 --forward --batch --quiet --no-backup-if-mismatch <"$KERNELS_DIR/$p" >/dev/null ||
		die "$recipe: patch $KERNELS_DIR/$p does not apply to $srcpkg $srcver"
done
gitc init -q
gitc add -A
gitc commit -q -m "step 0: $label ($srcpkg $srcver${rpatches[*]:+ + ${rpatches[*]}})"
gitc tag step-0
for i in "${!names[@]}"; do
	out=$(patch "${strips[i]}" --forward --batch --no-backup-if-mismatch <"$sdir/${names[i]}" 2>&1) ||
		die "$series:${lines[i]}: ${names[i]} does not apply on step $i: $(grep -m1 -iE 'fail|reject|malformed|garbage|skip' <<<"$out")"
	find . -name '*.orig' -newer .git/HEAD -delete 2>/dev/null || true
	# the patch's own subject when it has one (git format-patch, quilt
	# headers), else its name
	subj=$(sed -n 's/^Subject: *\(\[[^]]*\] *\)\{0,1\}//p' "$sdir/${names[i]}" | head -n 1 | LC_ALL=C tr -cd '\040-\176')
	gitc add -A
	gitc commit -q --allow-empty -m "step $((i + 1)): ${subj:-${names[i]}}" -m "series: ${names[i]}"
	gitc tag "step-$((i + 1))"
done
touch .git/rmapbench-series-done
cd /
mv "$work" "$tree"
trap - EXIT
say "--series: $series on $label: ${#names[@]} steps in $tree"
printf '%s\n%s\n' "$tree" "$fragments"
