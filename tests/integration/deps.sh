#!/usr/bin/env bash
# Only ./run.sh with no arguments, ./run.sh nightly (as root), make deps
# and make test install packages; every other ./run.sh command says what
# is missing and stops.
# dpkg-query and apt-get are stand-ins here: a package is missing, and an
# install would leave a mark.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$tmp/bin"
cat >"$tmp/bin/dpkg-query" <<'SH'
#!/bin/sh
for a in "$@"; do [ "$a" = stress-ng ] && exit 1; done
echo "install ok installed"
SH
cat >"$tmp/bin/apt-get" <<SH
#!/bin/sh
echo "\$*" >>"$tmp/apt-get.called"
exit 1
SH
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/apt-get"
export PATH=$tmp/bin:$PATH
for cmd in runs "show last" "engine scenario --list" "kernel list"; do
	# shellcheck disable=SC2086
	"$top/run.sh" $cmd >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[[ $rc == 2 ]] || fail "./run.sh $cmd exited $rc with a package missing: $(cat "$tmp/err")"
	grep -q "missing Debian packages: stress-ng" "$tmp/err" || fail "./run.sh $cmd did not say what is missing: $(cat "$tmp/err")"
	[[ ! -e $tmp/apt-get.called ]] || fail "./run.sh $cmd ran apt-get $(cat "$tmp/apt-get.called")"
done
# the nightly installs what it lacks when root (a fresh CI machine), and
# a failed install stops it with what is missing and the command for it
if [[ $(id -u) == 0 ]]; then
	"$top/run.sh" nightly >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[[ $rc == 2 ]] || fail "./run.sh nightly exited $rc when its install failed: $(cat "$tmp/err")"
	[[ -s $tmp/apt-get.called ]] || fail "./run.sh nightly did not try to install"
	grep -q "apt-get could not install: stress-ng" "$tmp/err" || fail "./run.sh nightly: $(cat "$tmp/err")"
	rm -f "$tmp/apt-get.called"
fi
"$top/scripts/deps.sh" >"$tmp/out" 2>&1 && fail "the installing bootstrap hid a failed install"
[[ -s $tmp/apt-get.called ]] || fail "the bootstrap (./run.sh, make deps, make test) did not try to install"
echo "only the four installing commands install"
