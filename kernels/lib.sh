# Shared by the kernel recipes: where the cache is, how a recipe is read,
# how errors look (one line, naming what is missing).
KERNELS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${RMAPBENCH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rmapbench/kernels}

die() {
	echo "rmapbench: kernel: $*" >&2
	exit 1
}

say() {
	echo "rmapbench: kernel: $*" >&2
}

source "$KERNELS_DIR/builder.sh"

# recipe_get FILE KEY: the value of "KEY = VALUE" ('#' comments).
recipe_get() {
	sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*//p" "$1" | sed 's/[[:space:]]*$//' | tail -n 1
}

# recipe_require FILE KEY: the value, or a one-line error naming both.
recipe_require() {
	local v
	v=$(recipe_get "$1" "$2")
	[[ -n $v ]] || die "$1: no '$2 ='"
	echo "$v"
}

recipe_path() {
	local label=$1
	[[ $label =~ ^[A-Za-z0-9._-]+$ ]] || die "'$label' is not a kernel label (letters, digits, '.', '_', '-')"
	local f="$KERNELS_DIR/$label.kernel"
	[[ -f $f ]] || die "no recipe $f for kernel '$label' (kernels/*.kernel lists them)"
	echo "$f"
}

# The fnv-free, tool-free config hash every target records: sha256, short.
config_hash() {
	echo "sha256:$(sha256sum "$1" | cut -c1-16)"
}

# Modules to load in the guest, dependencies first, as absolute paths.
# modules_in_order MODDIR NAME...
modules_in_order() {
	local moddir=$1
	shift
	local dep="$moddir/modules.dep" name line mod
	local -a out=()
	for name in "$@"; do
		line=$(grep -E "(^|/)${name}\.ko(\.[a-z]+)?:" "$dep" | head -n 1) ||
			die "module $name is not in $dep"
		mod=${line%%:*}
		# modules.dep lists what mod needs, users before what they use:
		# load them last first.
		local -a deps=(${line#*:})
		local i
		for ((i = ${#deps[@]} - 1; i >= 0; i--)); do
			out+=("$moddir/${deps[i]}")
		done
		out+=("$moddir/$mod")
	done
	# Keep the first of duplicates.
	printf '%s\n' "${out[@]}" | awk '!seen[$0]++' | tr '\n' ' '
}

# write_info DIR key=value...
write_info() {
	local dir=$1
	shift
	printf '%s\n' "$@" >"$dir/kernel.info.tmp"
	mv "$dir/kernel.info.tmp" "$dir/kernel.info"
}

# tree_check WHAT PATH: PATH as the top of a git tree of ours (its
# physical path), or a one-line error naming WHAT. Root runs no git here:
# it looks for .git itself; git reads the tree only as the builder.
tree_check() {
	local what=$1 path=$2 up
	[[ -d $path ]] || die "'$what': $path is not a directory"
	path=$(cd "$path" && pwd -P)
	if [[ ! -e $path/.git ]]; then
		up=$(dirname "$path")
		while [[ $up != / && ! -e $up/.git ]]; do up=$(dirname "$up"); done
		[[ $up == / ]] && die "'$what': $path is not a git tree"
		die "'$what': $path is inside the git tree $up: name its top"
	fi
	tree_owned_by_us "$what" "$path"
	echo "$path"
}

# git_tree WHAT PATH (as the builder): PATH is the top of a clean git tree.
git_tree() {
	local what=$1 path=$2 top
	top=$(git_safe -C "$path" rev-parse --show-toplevel 2>/dev/null) ||
		die "'$what': ${RB_SHOW:-$path} is not a git tree the builder (uid $(id -u)) can read"
	[[ $top == "$path" ]] || die "'$what': ${RB_SHOW:-$path} is not the top of its git tree"
	if [[ -n $(git_safe --no-optional-locks -C "$path" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
		die "'$what': ${RB_SHOW:-$path} has uncommitted changes (git -C ${RB_SHOW:-$path} status): commit or stash them first"
	fi
}

# git_commit WHAT PATH REV: REV's full commit hash. REV reaches git's
# command line, so never as an option or a negation, and only a
# revision's characters.
git_commit() {
	local what=$1 path=$2 rev=$3
	[[ $rev != -* && $rev != ^* && $rev =~ ^[][A-Za-z0-9._/~^@{}:+-]+$ ]] ||
		die "'$what': REV '$rev' is not a revision (letters, digits and ._/~^@{}:+- only, not starting with '-' or '^')"
	git_safe -C "$path" rev-parse --verify --quiet --end-of-options "$rev^{commit}" ||
		die "'$what': $rev does not resolve to a commit in ${RB_SHOW:-$path}"
}

# spec_flavour SPEC: "debug" when SPEC ends in +debug (that kernel with
# config/debug.config over its fragments), else "" (kernel.h says the same
# for the C side).
spec_flavour() {
	[[ $1 == *+debug ]] && echo debug || true
}

# fragments_check CONFIG FRAGMENT...: 0, or the first fragment line that
# olddefconfig did not keep in CONFIG (a missing dependency would give
# another kernel, silently), as a message on stdout and 1.
fragments_check() {
	local cfg=$1 f line
	shift
	for f in "$@"; do
		while IFS= read -r line; do
			if [[ $line =~ ^CONFIG_[A-Z0-9_]+= ]]; then
				grep -qxF "$line" "$cfg" || {
					echo "$KERNELS_DIR/$f: '$line' did not survive olddefconfig (a dependency is off)"
					return 1
				}
			elif [[ $line =~ ^#\ (CONFIG_[A-Z0-9_]+)\ is\ not\ set ]]; then
				! grep -q "^${BASH_REMATCH[1]}=" "$cfg" || {
					echo "$KERNELS_DIR/$f: '${BASH_REMATCH[1]}' is still set after olddefconfig"
					return 1
				}
			fi
		done <"$KERNELS_DIR/$f"
	done
}

# source_tree DIR TARBALL: Debian's kernel source unpacked into DIR as a
# git history's first tree. Its .gitignore ends with "/*" lines that
# ignore every top-level entry: a history of it must drop them.
source_tree() {
	tar -xf "$2" -C "$1" --strip-components=1
	sed -i '/^\/\*$/d; /^!\//d' "$1/.gitignore"
}

# gitc ARGS...: git as the committer of the histories we make.
gitc() {
	git_safe -c user.name=rmapbench -c user.email=rmapbench@localhost -c commit.gpgsign=false "$@"
}
