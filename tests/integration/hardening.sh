#!/usr/bin/env bash
# concurrent: reads the built binaries
# Every binary we ship is built hardened: a stack protector and fortified
# libc calls in all of them, and the dynamic ones (the CLI, the
# benchmarks, the recorder, which runs as root) position-independent with
# full RELRO.
set -u
source "$(dirname "$0")/../lib.sh"
for b in rmapbench rmapbench-bench rmapbench-load rmapbench-agent rmapbench-record; do
	f=$top/build/$b
	[[ -x $f ]] || fail "$f is not built"
	syms=$(readelf -sW "$f" 2>/dev/null)
	grep -q '__stack_chk_fail' <<<"$syms" || fail "$b: no stack protector (__stack_chk_fail)"
	grep -qE '__[a-z_]*(printf|memcpy|read|strcpy|memset)_chk' <<<"$syms" || fail "$b: no fortified libc calls"
done
for b in rmapbench rmapbench-bench rmapbench-record; do
	f=$top/build/$b
	readelf -hW "$f" | grep -q 'Type:.*DYN' || fail "$b is not position-independent"
	readelf -lW "$f" | grep -q 'GNU_RELRO' || fail "$b has no RELRO segment"
	readelf -dW "$f" | grep -qE 'BIND_NOW|FLAGS.*NOW' || fail "$b binds lazily (no full RELRO)"
done
echo "five binaries with stack protector and fortify; three PIE with full RELRO"
