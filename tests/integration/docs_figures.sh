#!/usr/bin/env bash
# concurrent: reads README.md and docs/ only
# Every measured figure in README.md and docs/ (outside docs/results/)
# sits in a paragraph that links the record that measured it, and every
# record names its revision and command. A figure is a number with a unit
# (%, s, ms, ns, MiB, users, x, k...) outside code; a paragraph whose
# numbers are settings or constants, not measurements, says so with
# <!-- not measured -->.
set -u
source "$(dirname "$0")/../lib.sh"
cd "$top" || fail "cd $top"
python3 - README.md docs/*.md <<'PY' || fail "figures without their record (above)"
import re, sys
UNIT = r'(%|ms\b|s\b|ns\b|us\b|µs\b|MiB\b|GiB\b|KiB\b|MB/s\b|minutes?\b|min\b|seconds?\b|users\b|jobs/min\b|x\b|×|k\b)'
FIG = re.compile(r'(?<![\w.=-])~?\d[\d,]*(\.\d+)?\s?' + UNIT)
bad = 0
for path in sys.argv[1:]:
    text = open(path).read()
    text = re.sub(r'```.*?```', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    paras, start, cur = [], 1, []
    for i, line in enumerate(text.split('\n'), 1):
        if line.strip() == '':
            if cur:
                paras.append((start, cur))
            cur, start = [], i + 1
        else:
            cur.append(line)
    if cur:
        paras.append((start, cur))
    for start, lines in paras:
        p = ' '.join(lines)
        if '<!-- not measured -->' in p or re.search(r'\]\([^)]*(results/|seeds)[^)]*\)', p):
            continue
        q = re.sub(r'`[^`]*`', '', p)
        m = FIG.search(q)
        if m:
            bad += 1
            print('%s:%d: a figure without its record: ...%s...' % (path, start, q[max(0, m.start() - 40):m.end() + 20].strip()))
sys.exit(1 if bad else 0)
PY
for r in docs/results/2*.md; do
	grep -qiE 'revision' "$r" || fail "$r names no revision"
	grep -qiE 'command' "$r" || fail "$r names no command"
done
# the records' index lists every record
for r in docs/results/2*.md; do
	grep -qF "($(basename "$r"))" docs/results/README.md || fail "docs/results/README.md does not list $(basename "$r")"
done
# and every record it lists is there
for f in $(grep -oE '\(2[^)]*\.md\)' docs/results/README.md | tr -d '()'); do
	[[ -f docs/results/$f ]] || fail "docs/results/README.md lists $f, which is not there"
done
# and every record a page links is there
for page in README.md docs/*.md; do
	d=$(dirname "$page")
	for f in $(grep -oE '\]\([^)#]*results/[^)#]*\.md\)' "$page" | sed 's/^](//; s/)$//'); do
		[[ -f $d/$f ]] || fail "$page links $f, which is not there"
	done
done
echo "README.md and docs/: every figure beside its record; $(ls docs/results/2*.md | wc -l) records, each with its revision and command"
