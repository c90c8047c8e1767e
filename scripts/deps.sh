#!/usr/bin/env bash
# The one dependency bootstrap. Four commands install: ./run.sh with no
# arguments, ./run.sh nightly and `make deps` (with --kernels: what building
# kernels from linux-source-6.1 needs) and `make test`; every other ./run.sh
# command runs it with --check, which says what is missing and installs
# nothing.
# Installs the Debian packages that are missing, or, when it cannot (not
# root, no apt-get), says exactly what is missing and the command for it.
set -euo pipefail

# What each is for: the build (libc6-dev has libc.a for the static workload
# binary); the results database and its shell for the tests; counters by
# event name; the microbenchmark layer (a C++ shim); figures; the companion
# load and fork yardstick; kernels in a VM and their initramfs; mkswap and
# swapon, ps for the tests; clang and its runtime for the libFuzzer and
# TSan builds; GSL for the statistics; zlib for CRC32 and /proc/config.gz
# (libz.a: the static guest agent); bubblewrap and setpriv, the sandbox
# that strangers' kernel trees and patch series are read and built in,
# as nobody (kernels/builder.sh). --test adds Chromium, to look at the
# report as a person does (tests/integration/report_browser.sh), and
# Python, one of the real programs the recorder's test records
# (tests/integration/record_replay.sh).
packages=(
	gcc make libc6-dev
	libsqlite3-dev sqlite3
	libpfm4-dev
	libbenchmark-dev g++
	gnuplot-nox
	stress-ng
	qemu-system-x86 cpio kmod
	util-linux gzip procps
	git bubblewrap
	clang libclang-rt-14-dev
	libgsl-dev zlib1g-dev
)

check=0
for a in "$@"; do
	case $a in
	--kernels) packages+=(linux-source-6.1 flex bison bc libelf-dev libssl-dev xz-utils patch ccache git) ;;
	--test) packages+=(chromium python3) ;;
	--bench) packages+=(postgresql) ;; # make bench-record: a fork-per-connection server and pgbench
	--check) check=1 ;; # say what is missing, install nothing
	*) echo "rmapbench: deps.sh: unknown option '$a' (--kernels, --test, --bench, --check)" >&2; exit 2 ;;
	esac
done

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
if ((check)); then
	echo "rmapbench: missing Debian packages: ${missing[*]}" >&2
	echo "rmapbench: 'make deps' installs them (or: apt-get install -y ${missing[*]})" >&2
	exit 1
fi

if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
	echo "rmapbench: missing Debian packages: ${missing[*]}" >&2
	echo "rmapbench: install them with: sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "rmapbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	rm -f "$log"
	echo "rmapbench: apt-get could not install: ${missing[*]}" >&2
	echo "rmapbench: install them with: apt-get install -y ${missing[*]}" >&2
	exit 1
fi
rm -f "$log"
