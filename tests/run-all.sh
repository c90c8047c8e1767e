#!/usr/bin/env bash
# Runs every test: the unit binaries given as arguments (TAP, under
# ASan+UBSan), then each tests/integration/*.sh (exit 0 pass, 4 skip, else
# fail). Ends with "N passed, N failed, N skipped"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.."
passed=0 failed=0 skipped=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in "$@"; do
	name=$(basename "$t")
	out=$("$t" 2>&1)
	rc=$?
	ok=$(grep -c '^ok ' <<<"$out")
	bad=$(grep -c '^not ok ' <<<"$out")
	if [[ $rc -ne 0 && $bad -eq 0 ]]; then
		bad=1 # crashed or a sanitizer stopped it
	fi
	passed=$((passed + ok))
	failed=$((failed + bad))
	if [[ $bad -ne 0 ]]; then
		echo "FAIL $name ($ok passed, $bad failed, exit $rc)"
		grep -v '^ok ' <<<"$out" | tail -n 40 | sed 's/^/    /'
	else
		echo "ok   $name ($ok checks)"
	fi
done
for t in tests/integration/*.sh; do
	name=$(basename "$t" .sh)
	start=$(date +%s)
	out=$(timeout 600 bash "$t" 2>&1)
	rc=$?
	secs=$(($(date +%s) - start))
	case $rc in
	0) passed=$((passed + 1)); echo "ok   $name (${secs}s)" ;;
	4) skipped=$((skipped + 1)); echo "skip $name: $(tail -n 1 <<<"$out")" ;;
	*) failed=$((failed + 1)); echo "FAIL $name (exit $rc, ${secs}s)"; tail -n 40 <<<"$out" | sed 's/^/    /' ;;
	esac
done
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
