#!/usr/bin/env bash
# concurrent: reads the sources and objects
# The layering: every #include "x.h" of a layer's folder names a header of
# that folder or of a folder the Makefile's LAYER_INC table lets it include
# (make print-layers), never a path with "..", and of the engine the
# recorder takes engine/trace_format.h alone. No include circle inside a
# layer's folder. And the engine's files call
# each other without a cycle (from their objects' symbols), so that each
# can be read on top of the ones below it. And the commands
# (harness/cli/cmd_*.c) are flag tables and printing over harness/jobs/:
# none calls a function another command file defines, none is over 150
# lines, and no function of harness/ is over 80.
set -u
cd "$(dirname "$0")/../.."
fail=0
declare -A allowed
while IFS=': ' read -r folder rest; do
	allowed[$folder]="$folder $rest"
done < <(make -s --no-print-directory print-layers)
[[ ${#allowed[@]} -ge 8 ]] || { echo "make print-layers listed ${#allowed[@]} layers"; exit 1; }
for folder in "${!allowed[@]}"; do
	for src in "$folder"/*.c "$folder"/*.h "$folder"/*.cc "$folder"/*.def; do
		[[ -f $src ]] || continue
		while IFS= read -r inc; do
			h=${inc#*\"}
			h=${h%%\"*}
			if [[ $h == */* ]]; then
				echo "$src: #include \"$h\": a path, not a header of an allowed layer"
				fail=1
				continue
			fi
			found=""
			for dir in ${allowed[$folder]}; do
				[[ -f $dir/$h ]] && found=$dir
			done
			# generated headers (build/gen) and a folder's own list files
			[[ -z $found && ( $h == migrations.h || $h == rev.h ) ]] && found=gen
			# the recorder takes the trace's format from the engine, nothing else
			if [[ $folder == record && $found == engine && $h != trace_format.h ]]; then
				echo "$src: #include \"$h\": record/ includes only engine/trace_format.h of the engine"
				fail=1
			fi
			if [[ -z $found ]]; then
				owner=$(for d in "${!allowed[@]}"; do [[ -f $d/$h ]] && echo "$d"; done | head -n 1)
				echo "$src: #include \"$h\" (${owner:-nowhere}): $folder may include only from: ${allowed[$folder]}"
				fail=1
			fi
		done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src")
	done
done

# Inside each layer's folder, no include circle: a file's module (its .c
# and .h) includes headers of modules that never include its own, so each
# can be read on top of the ones it names.
python3 - "${!allowed[@]}" <<'PY' || fail=1
import os, re, sys
fail = 0
for folder in sys.argv[1:]:
    files = [f for f in os.listdir(folder) if f.endswith(('.c', '.h'))]
    headers = {f[:-2] for f in files if f.endswith('.h')}
    edges = {}
    for f in files:
        stem = f[:-2]
        for line in open(os.path.join(folder, f), errors='replace'):
            m = re.match(r'\s*#\s*include\s*"([^"/]+)\.h"', line)
            if m and m.group(1) in headers and m.group(1) != stem:
                edges.setdefault(stem, set()).add(m.group(1))
    state = {}
    def visit(n, path):
        state[n] = 1
        for g in sorted(edges.get(n, ())):
            if state.get(g) == 1:
                print('%s: an include circle: %s' % (folder, ' -> '.join(path[path.index(g):] + [g])))
                return False
            if not state.get(g) and not visit(g, path + [g]):
                return False
        state[n] = 2
        return True
    for n in sorted(edges):
        if not state.get(n) and not visit(n, [n]):
            fail = 1
            break
sys.exit(fail)
PY

# The engine's call graph between files, from the symbols each object
# defines and uses: a cycle is a pair of files that need each other.
objs=(build/obj/engine/*.o)
[[ -f ${objs[0]} ]] || { echo "no engine objects: run make first"; exit 1; }
python3 - "${objs[@]}" <<'PY' || fail=1
import subprocess, sys
defs, uses = {}, {}
for o in sys.argv[1:]:
    name = o.rsplit('/', 1)[1][:-2] + '.c'
    out = subprocess.run(['nm', o], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDRB':
            defs[parts[2]] = name
        elif len(parts) == 2 and parts[0] == 'U':
            uses.setdefault(name, set()).add(parts[1])
edges = {f: {defs[s] for s in u if s in defs and defs[s] != f} for f, u in uses.items()}
state = {}
def visit(f, path):
    state[f] = 1
    for g in sorted(edges.get(f, ())):
        if state.get(g) == 1:
            print('engine: a call cycle between files: ' + ' -> '.join(path[path.index(g):] + [g]))
            return False
        if not state.get(g) and not visit(g, path + [g]):
            return False
    state[f] = 2
    return True
ok = all(visit(f, [f]) for f in sorted(edges) if not state.get(f))
sys.exit(0 if ok else 1)
PY

# No command calls another: a procedure two commands share is a job.
cmds=(build/obj/harness/cli/cmd_*.o)
[[ -f ${cmds[0]} ]] || { echo "no command objects: run make first"; exit 1; }
python3 - "${cmds[@]}" <<'PY' || fail=1
import subprocess, sys
defs, uses = {}, {}
for o in sys.argv[1:]:
    name = o.rsplit('/', 1)[1][:-2] + '.c'
    for line in subprocess.run(['nm', o], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDRB':
            defs[parts[2]] = name
        elif len(parts) == 2 and parts[0] == 'U':
            uses.setdefault(name, set()).add(parts[1])
bad = sorted((f, s, defs[s]) for f, u in uses.items() for s in u if s in defs and defs[s] != f)
for f, s, g in bad:
    print('harness/cli/%s calls %s of harness/cli/%s: a command calls no other; share it as a job (harness/jobs/)' % (f, s, g))
sys.exit(1 if bad else 0)
PY

# The sizes the house keeps: a command file at most 150 lines, a
# function of harness/ at most 80 (from its opening brace in column 0 to
# its closing one, its name's line included).
for f in harness/cli/cmd_*.c; do
	n=$(wc -l < "$f")
	(( n <= 150 )) || { echo "$f: $n lines, over 150: its procedure belongs in harness/jobs/"; fail=1; }
done
python3 - harness/*/*.c <<'PY' || fail=1
import re, sys
bad = 0
for path in sys.argv[1:]:
    lines = open(path, errors='replace').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i] == '{' and i > 0:
            j = i - 1
            while j > 0 and '(' not in lines[j]:
                j -= 1
            m = re.search(r'(\w+)\s*\(', lines[j])
            k = i + 1
            while k < len(lines) and lines[k] != '}':
                k += 1
            if k - j + 1 > 80:
                print('%s:%d: %s is %d lines, over 80' % (path, j + 1, m.group(1) if m else '?', k - j + 1))
                bad = 1
            i = k
        i += 1
sys.exit(bad)
PY
exit $fail
