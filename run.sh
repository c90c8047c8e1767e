#!/usr/bin/env bash
# ./run.sh                 the main job: dependencies, build, configs/quick.conf,
#                          record, plot; prints the run id, database and report
# ./run.sh nightly [--config F] [--baseline RUN] [--junit F] [--markdown F] [--set K=V]...
#                          dependencies (as root), then the nightly suite
#                          (configs/nightly.conf) and its vm and engine parts
#                          against their baselines, and its reference
#                          (reference_kernels) as a positive control; the
#                          database is $RMAPBENCH_DB or --db
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
# The main job and the nightly install packages (the nightly builds its
# kernels from linux-source-6.1); the rest say what is missing.
case "${1:-}" in
"") scripts/deps.sh ;;
nightly) scripts/deps.sh --kernels || exit 2 ;;
kernel | compare-kernels | bisect) scripts/deps.sh --check --kernels || exit 2 ;;
*) scripts/deps.sh --check || exit 2 ;;
esac
make -q all 2>/dev/null || make -s all >&2
case "${1:-}" in
"") exec build/rmapbench ${global[@]+"${global[@]}"} run configs/quick.conf ;;
nightly)
	# exit 0 no regression, 1 a regression, 2 an error or a blind reference
	shift
	exec build/rmapbench ${global[@]+"${global[@]}"} nightly "$@"
	;;
*) exec build/rmapbench ${global[@]+"${global[@]}"} "$@" ;;
esac
