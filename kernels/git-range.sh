#!/usr/bin/env bash
# git-range.sh PATH GOOD BAD: what a bisect walks. Prints "good HASH",
# "bad HASH", then a line "commit HASH AUTHOR-DATE SUBJECT" for each
# commit of `git rev-list --first-parent GOOD..BAD`, oldest first (BAD
# last). GOOD must be an ancestor of BAD; the tree clean.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ $# == 3 ]] || die "usage: git-range.sh PATH GOOD BAD"
path=$(git_tree "$1" "$1")
good=$(git_commit "$2" "$path" "$2")
bad=$(git_commit "$3" "$path" "$3")
[[ $good != "$bad" ]] || die "GOOD $2 and BAD $3 are the same commit: nothing to bisect"
git -C "$path" merge-base --is-ancestor "$good" "$bad" ||
	die "GOOD $2 (${good:0:12}) is not an ancestor of BAD $3 (${bad:0:12}) in $path"
echo "good $good"
echo "bad $bad"
git -C "$path" log --first-parent --reverse --format='commit %H %as %s' "$good..$bad" |
	LC_ALL=C tr -cd '\040-\176\n' | cut -c1-200
