#!/usr/bin/env bash
# git-range.sh PATH GOOD BAD: what a bisect walks. Prints "good HASH",
# "bad HASH", then a line "commit HASH AUTHOR-DATE SUBJECT" for each
# commit of `git rev-list --first-parent GOOD..BAD`, oldest first (BAD
# last). GOOD must be an ancestor of BAD; the tree clean. Git reads the
# tree as the builder (tree-in.sh range), never as root.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ $# == 3 ]] || die "usage: git-range.sh PATH GOOD BAD"
path=$(tree_check "$1" "$1")
RB_SHOW=$path as_builder --ro "$path" tree -- bash "$RB_IN/kernels/tree-in.sh" range "$2" "$3"
