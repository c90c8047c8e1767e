#!/usr/bin/env bash
# concurrent: records its own small programs
# Nothing the recorded program starts escapes `record`, and a sparse
# mapping costs what it holds: a child made with clone(CLONE_UNTRACED) is
# traced all the same and gone when record returns; a 128 GiB mapping
# with two pages is read by PAGEMAP_SCAN, not whole; a mapping too large
# to follow is counted once in the header, not at every sync.
source "$(dirname "$0")/../lib.sh"
[[ $(id -u) == 0 ]] || skip "needs root: the recorder reads frame numbers from pagemap"
cd "$tmp"
REC=$top/build/asan/rmapbench-record
for p in untraced sparse; do
	cc -O1 -o "$p" "$top/tests/integration/progs/$p.c" || fail "cannot build $p.c"
done
"$REC" --out u.trace.gz -- ./untraced "$tmp/mark" 2>u.err || fail "record of untraced: $(cat u.err)"
[[ -s mark ]] || fail "the CLONE_UNTRACED child had not finished when record returned"
pid=$(cat mark)
# gone, or a zombie its new parent has not reaped yet: it runs no more
[[ ! -e /proc/$pid ]] || grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null ||
	fail "the CLONE_UNTRACED child outlived record: $(grep State "/proc/$pid/status")"
zcat u.trace.gz | grep -qx 'fork 1 2' || fail "the CLONE_UNTRACED child is not in the trace"
zcat u.trace.gz | grep -qx '# untraced: 1 clone(CLONE_UNTRACED) calls, traced all the same' ||
	fail "the header does not say the clone was made traced: $(zcat u.trace.gz | grep '^#')"
"$REC" --out s.trace.gz -- ./sparse 128 300 2>s.err || fail "record of sparse: $(cat s.err)"
major=$(uname -r | cut -d. -f1) minor=$(uname -r | cut -d. -f2)
if ((major > 6 || (major == 6 && minor >= 7))); then # PAGEMAP_SCAN
	grep -qE ' [1-9][0-9]* mappings scanned' s.err || fail "the 128 GiB mapping was read whole: $(cat s.err)"
fi
zcat s.trace.gz | grep -qE '^write 1 [0-9]+$' || fail "the sparse mapping's pages are not in the trace"
# 300 GiB: over what a trace follows; counted once however many syncs
"$REC" --out h.trace.gz -- ./sparse 300 300 2>h.err || fail "record of a 300 GiB mapping: $(cat h.err)"
zcat h.trace.gz | grep -qx '# skipped: 1 mappings larger than 256 GiB (each counted once)' ||
	fail "the skipped mapping is not counted once: $(zcat h.trace.gz | grep '^# skipped'), $(cat h.err)"
echo "record: an untraced clone followed, a sparse mapping scanned, a huge one counted once"
