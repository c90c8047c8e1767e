#!/usr/bin/env bash
# ./run.sh                 the main job: dependencies, build, configs/quick.conf,
#                          record, plot; prints the run id, database and report
# ./run.sh nightly [--baseline RUN] [--junit F] [--markdown F] [--set K=V]...
#                          the nightly suite (configs/nightly.conf) and its
#                          vm and engine parts against their baselines, then
#                          compare-kernels minimal legacy-anon-vma in QEMU
#                          (configs/nightly-kernels.conf); the database is
#                          $RMAPBENCH_DB or --db
# ./run.sh SUBCOMMAND ...  any rmapbench subcommand (./run.sh --help lists them)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
# Global options may come before the command (./run.sh --db X nightly):
# they are kept aside, found the command, and given to every rmapbench
# this script runs.
global=()
while (($#)); do
	case $1 in
	--db | --set) (($# >= 2)) || break; global+=("$1" "$2"); shift 2 ;;
	--db=* | --set=*) global+=("$1"); shift ;;
	*) break ;;
	esac
done
# Only the main job installs packages; the rest say what is missing.
case "${1:-}" in
"") scripts/deps.sh ;;
kernel | compare-kernels | nightly) scripts/deps.sh --check --kernels || exit 2 ;;
*) scripts/deps.sh --check || exit 2 ;;
esac
make -q all 2>/dev/null || make -s all >&2
case "${1:-}" in
"") exec build/rmapbench ${global[@]+"${global[@]}"} run configs/quick.conf ;;
nightly)
	# The nightly suite and its engine part against their baselines (exit
	# 0 no regression, 1 a regression, 2 an error), then the reference
	# kernels side by side in QEMU; all always run. A kernel comparison
	# that cannot run makes an otherwise clean night exit 2.
	shift
	rc=0
	build/rmapbench ${global[@]+"${global[@]}"} nightly "$@" || rc=$?
	# the reference: the same source and config with the patch reverted;
	# its regressions are expected, its verdicts show the harness sees them
	build/rmapbench ${global[@]+"${global[@]}"} compare-kernels minimal legacy-anon-vma \
		--config configs/nightly-kernels.conf || { ((rc)) || rc=2; }
	exit "$rc"
	;;
*) exec build/rmapbench ${global[@]+"${global[@]}"} "$@" ;;
esac
