#!/usr/bin/env bash
# ./run.sh                 the main job: dependencies, build, configs/quick.conf,
#                          record, plot; prints the run id, database and report
# ./run.sh nightly         the nightly suite (configs/nightly.conf)
# ./run.sh SUBCOMMAND ...  any rmapbench subcommand (./run.sh --help lists them)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
scripts/deps.sh
make -s all >&2
case "${1:-}" in
"") exec build/rmapbench run configs/quick.conf ;;
nightly) shift; exec build/rmapbench "$@" run configs/nightly.conf ;;
*) exec build/rmapbench "$@" ;;
esac
