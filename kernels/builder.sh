# Sourced by lib.sh. The unprivileged builder: who reads and builds code
# from strangers (a kernel tree, its .git/, a patch series). Root never
# runs it. as_builder runs a command as BUILDER_UID (nobody, or the user
# who runs rmapbench when that is not root) under bubblewrap: every mount
# read-only but the folders given --rw, a private /tmp, no network, its
# own pid namespace (nothing it starts outlives it), no capabilities and
# no_new_privs. Paths inside are fixed (/tmp/rb/NAME), so that a cache
# under root's 0700 home is reachable and ccache sees the same paths on
# every build.
#
#   ensure_builder_dir DIR       DIR exists, owned by the builder
#   as_builder [--ro|--rw HOSTDIR NAME]... -- CMD...
#   git_safe ARGS...             git with hooks, fsmonitor, pagers and
#                                every config file but the repository's off
#   tree_owned_by_us WHAT PATH   the harness's own ownership check

if (($(id -u) == 0)); then
	BUILDER_UID=${RMAPBENCH_BUILDER_UID:-$(id -u nobody)}
	BUILDER_GID=${RMAPBENCH_BUILDER_GID:-$(id -g nobody)}
	[[ $BUILDER_UID =~ ^[1-9][0-9]*$ && $BUILDER_GID =~ ^[1-9][0-9]*$ ]] ||
		die "RMAPBENCH_BUILDER_UID/GID must name a user other than root (got '$BUILDER_UID:$BUILDER_GID')"
else
	BUILDER_UID=$(id -u) BUILDER_GID=$(id -g)
fi
RB_IN=/tmp/rb # where as_builder's folders appear inside

ensure_builder_dir() {
	mkdir -p -- "$1"
	if (($(id -u) == 0)) && [[ $(stat -c %u -- "$1") != "$BUILDER_UID" ]]; then
		# a folder of ours from before the builder existed: -R does not
		# follow links (-P is chown's default)
		chown -R "$BUILDER_UID:$BUILDER_GID" -- "$1"
	fi
}

as_builder() {
	command -v bwrap >/dev/null || die "bwrap is missing: strangers' trees are built in a sandbox (scripts/deps.sh installs bubblewrap)"
	local -a binds=(--perms 0755 --dir "$RB_IN" --perms 1777 --dir "$RB_IN/home"
		--ro-bind "$KERNELS_DIR" "$RB_IN/kernels")
	while [[ ${1:-} == --ro || ${1:-} == --rw ]]; do
		[[ -d $2 ]] || die "as_builder: $2 is not a directory"
		if [[ $1 == --ro ]]; then binds+=(--ro-bind "$2" "$RB_IN/$3"); else binds+=(--bind "$2" "$RB_IN/$3"); fi
		shift 3
	done
	[[ ${1:-} == -- ]] || die "as_builder: expected --"
	shift
	local -a drop=()
	(($(id -u) == 0)) && drop=(setpriv "--reuid=$BUILDER_UID" "--regid=$BUILDER_GID" --clear-groups
		--inh-caps=-all --bounding-set=-all --no-new-privs --)
	bwrap --ro-bind / / --dev /dev --proc /proc --perms 1777 --tmpfs /tmp --tmpfs /var/tmp \
		"${binds[@]}" \
		--unshare-pid --unshare-net --unshare-ipc --unshare-uts --die-with-parent --new-session \
		--chdir "$RB_IN" -- \
		"${drop[@]}" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$RB_IN/home" LANG=C.UTF-8 \
		TMPDIR=/tmp RB_SHOW="${RB_SHOW:-}" "$@"
}

# as_builder_why ARGS...: as_builder, its stderr kept apart; on failure
# BUILDER_WHY is its last line, printable, without our prefix (the
# builder's words are a stranger's output: bounded before they are said).
as_builder_why() {
	local errf rc=0
	errf=$(mktemp)
	(as_builder "$@") 2>"$errf" || rc=$? # a subshell: its own die is said too
	BUILDER_WHY=$(tail -n 1 "$errf" | sed 's/^rmapbench: kernel: //' | LC_ALL=C tr -cd '\040-\176' | cut -c1-240)
	rm -f "$errf"
	return "$rc"
}

# git with nothing of the repository's that runs a program: no hooks, no
# fsmonitor, no pager, no signature checks, no system or global config.
# The tree's own .git/config is still read: only ever as the builder.
# A local clone's upload-pack gets none of the -c settings: the builder's
# global config (RB_GIT_GLOBAL, written by tree-in.sh) says them again.
git_safe() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=${RB_GIT_GLOBAL:-/dev/null} GIT_PAGER=cat PAGER=cat GIT_TERMINAL_PROMPT=0 \
		GIT_ATTR_NOSYSTEM=1 GIT_EXTERNAL_DIFF= GIT_ASKPASS=/bin/false \
		git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.pager=cat \
		-c log.showSignature=false -c safe.directory='*' --no-pager "$@"
}

# The harness's own rule, whatever git's safe.directory says: a tree is
# built only when it and its .git belong to the user who runs rmapbench
# (or, for histories we made of a series, to the builder, in our cache).
tree_owned_by_us() {
	local what=$1 path=$2 me f owner
	me=$(id -u)
	for f in "$path" "$path/.git"; do
		[[ -e $f ]] || continue
		[[ ! -L $f ]] || die "'$what': $f is a link: name the tree itself"
		owner=$(stat -c %u -- "$f")
		[[ $owner == "$me" ]] && continue
		[[ $owner == "$BUILDER_UID" && $path == "$CACHE/.series/"* ]] && continue
		die "'$what': $f belongs to uid $owner, not to you (uid $me): rmapbench reads only your own trees"
	done
}

# take_file SRC DST MAXBYTES: a file the builder made, copied by root
# only when it is what it says: a regular file (no link, no hard link to
# someone else's file), the builder's own, of at most MAXBYTES. The
# builder's processes are all gone by then (its pid namespace ended).
take_file() {
	local src=$1 dst=$2 max=$3 facts
	local -a f
	[[ -f $src && ! -L $src && ! -L $(dirname "$src") ]] || die "the builder made no file ${src##*/}"
	facts=$(stat -c '%u %h %s' -- "$src")
	read -r -a f <<<"$facts"
	((f[0] == BUILDER_UID && f[1] == 1 && f[2] <= max)) ||
		die "${src##*/} from the builder is not its own regular file of at most $max bytes (uid ${f[0]}, ${f[1]} links, ${f[2]} bytes)"
	cp --no-dereference -- "$src" "$dst"
}
