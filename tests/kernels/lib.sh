# Shared by make test-kernels and make test-bisect: the release binary
# (these tests time nothing and build kernels for minutes), a scratch
# directory removed on any exit, the kernel build's packages.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=$top/build/rmapbench
tmp=$(mktemp -d /tmp/rmapbench-tk-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
sql() { sqlite3 -batch "$1" "$2"; }
"$top/scripts/deps.sh" --kernels || fail "could not install the kernel build dependencies"
