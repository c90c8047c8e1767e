#!/usr/bin/env bash
# tree-in.sh STEP ARGS...: what the unprivileged builder does with code
# from strangers, run only through as_builder (builder.sh): the tree is
# $RB_IN/tree (read-only), the build folder $RB_IN/build, a series
# $RB_IN/series, our scripts $RB_IN/kernels. Messages name the user's
# path ($RB_SHOW), never ours.
#
#   facts REV                 "commit H", "tree H", "subject S" of REV
#   range GOOD BAD            git-range.sh's lines
#   build COMMIT FRAGS PATCHES USERCONFIG
#                             COMMIT built in build/: out/ gets bzImage,
#                             config, System.map, release and build_s
#   series TARBALL LABEL RPATCHES STRIP:NAME...
#                             build/ becomes a git history: the source
#                             with the recipe's patches (step-0), then a
#                             commit a patch (step-1 ..)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
(($(id -u) != 0)) || die "tree-in.sh runs as the builder, never as root"
tree=$RB_IN/tree build=$RB_IN/build
show() { printf '%s' "${RB_SHOW:-$1}"; }
export RB_GIT_GLOBAL=$HOME/gitconfig
printf '[core]\n\thooksPath = /dev/null\n\tfsmonitor = false\n[safe]\n\tdirectory = *\n' >"$RB_GIT_GLOBAL"

facts() {
	git_tree "$(show "$tree")" "$tree" >/dev/null
	local commit
	commit=$(git_commit "$(show "$tree")" "$tree" "$1")
	echo "commit $commit"
	echo "tree $(git_safe -C "$tree" rev-parse "$commit^{tree}")"
	# one line, printable, cut at a word to fit a label (64 bytes) with the short hash
	echo "subject $(git_safe -C "$tree" log -1 --format=%s "$commit" | LC_ALL=C tr -cd '\040-\176' |
		awk '{ s = $0; if (length(s) > 48) { s = substr(s, 1, 48); sub(/ [^ ]*$/, "", s); s = s "..." } print s }')"
}

range() {
	git_tree "$(show "$tree")" "$tree" >/dev/null
	local good bad
	good=$(git_commit "$1" "$tree" "$1")
	bad=$(git_commit "$2" "$tree" "$2")
	[[ $good != "$bad" ]] || die "GOOD $1 and BAD $2 are the same commit: nothing to bisect"
	git_safe -C "$tree" merge-base --is-ancestor "$good" "$bad" ||
		die "GOOD $1 (${good:0:12}) is not an ancestor of BAD $2 (${bad:0:12}) in $(show "$tree")"
	echo "good $good"
	echo "bad $bad"
	git_safe -C "$tree" log --first-parent --reverse --format='commit %H %as %s' "$good..$bad" |
		LC_ALL=C tr -cd '\040-\176\n' | cut -c1-200
}

build() {
	local commit=$1 userconfig=$4 src=$build/src obj=$build/obj log=$build/build.log p
	local -a fragments patches inputs=()
	read -r -a fragments <<<"$2"
	read -r -a patches <<<"$3"
	for p in "${fragments[@]}"; do inputs+=("$KERNELS_DIR/$p"); done
	: >"$log"
	trap 'die "the build stopped at line $LINENO of tree-in.sh"' ERR
	if [[ ! -d $src/.git ]]; then
		rm -rf "$src" "$obj"
		git_safe clone -q --shared --no-checkout "$tree" "$src" >>"$log" 2>&1
	fi
	# the commit is in the tree's objects, which the --shared clone reads
	{
		git_safe -C "$src" checkout -q -f --detach "$commit"
		git_safe -C "$src" clean -q -fdx
	} >>"$log" 2>&1
	for p in "${patches[@]}"; do
		patch -d "$src" -p1 --forward --batch --no-backup-if-mismatch <"$KERNELS_DIR/$p" >>"$log" 2>&1 ||
			die "patch $p does not apply: $(grep -m1 -iE 'fail|reject|malformed|only garbage' "$log" | cut -c1-160)"
	done
	local cc=gcc
	if command -v ccache >/dev/null; then
		cc="ccache gcc"
		export CCACHE_DIR=$build/ccache
	fi
	# The config is made beside the build and replaces .config only when it
	# differs: the same config keeps every object the last revision built.
	mkdir -p "$obj"
	rm -rf "$build/cfg"
	mkdir -p "$build/cfg"
	{
		if [[ $userconfig == 1 ]]; then
			cp "$build/config.user" "$build/cfg/.config"
		else
			make -C "$src" O="$build/cfg" CC="$cc" tinyconfig
			(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$build/cfg" "$build/cfg/.config" "${inputs[@]}")
		fi
		make -C "$src" O="$build/cfg" CC="$cc" olddefconfig
	} >>"$log" 2>&1
	if [[ $userconfig != 1 ]]; then
		local why
		why=$(fragments_check "$build/cfg/.config" "${fragments[@]}") || die "$why"
	fi
	cmp -s "$build/cfg/.config" "$obj/.config" || cp "$build/cfg/.config" "$obj/.config"
	local s secs
	s=$(date +%s)
	make -C "$src" O="$obj" CC="$cc" -j"$(nproc)" bzImage >>"$log" 2>&1 ||
		die "does not build: $(grep -m1 -E 'error|Error' "$log" | cut -c1-200)"
	secs=$(($(date +%s) - s))
	rm -rf "$build/out"
	mkdir "$build/out"
	cp "$obj/arch/x86/boot/bzImage" "$obj/System.map" "$build/out/"
	cp "$obj/.config" "$build/out/config"
	make -s -C "$src" O="$obj" kernelrelease 2>/dev/null | tail -n 1 >"$build/out/release"
	echo "$secs" >"$build/out/build_s"
	trap - ERR
}

series() {
	local tarball=$1 label=$2 i=0 p strip name subj out
	local -a rpatches
	read -r -a rpatches <<<"$3"
	shift 3
	cd "$build"
	source_tree "$build" "$tarball"
	for p in "${rpatches[@]}"; do
		patch -p1 --forward --batch --quiet --no-backup-if-mismatch <"$KERNELS_DIR/$p" >/dev/null ||
			die "patch $KERNELS_DIR/$p does not apply to $(basename "$tarball")"
	done
	gitc init -q
	gitc add -A
	gitc commit -q -m "step 0: $label (${tarball##*/}${rpatches[*]:+ + ${rpatches[*]}})"
	gitc tag step-0
	for p in "$@"; do
		strip=${p%%:*} name=${p#*:}
		i=$((i + 1))
		out=$(patch "$strip" --forward --batch --no-backup-if-mismatch <"$RB_IN/series/$name" 2>&1) ||
			die "step $i: $name does not apply: $(grep -m1 -iE 'fail|reject|malformed|garbage|skip' <<<"$out" |
				LC_ALL=C tr -cd '\040-\176' | cut -c1-160)"
		find . -name '*.orig' -newer .git/HEAD -delete 2>/dev/null || true
		# the patch's own subject when it has one (git format-patch, quilt
		# headers), else its name
		subj=$(sed -n 's/^Subject: *\(\[[^]]*\] *\)\{0,1\}//p' "$RB_IN/series/$name" | head -n 1 |
			LC_ALL=C tr -cd '\040-\176' | cut -c1-120)
		gitc add -A
		gitc commit -q --allow-empty -m "step $i: ${subj:-$name}" -m "series: $name"
		gitc tag "step-$i"
	done
}

step=${1:?usage: tree-in.sh facts|range|build|series ARGS...}
shift
case $step in
facts | range | build | series) "$step" "$@" ;;
*) die "tree-in.sh: unknown step '$step'" ;;
esac
