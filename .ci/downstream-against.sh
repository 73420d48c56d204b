#!/usr/bin/env bash
# Runs today's copy of a downstream package of .ci/ (.ci/downstream by default, or the one named,
# such as real-suites) against an older build of this package, given as a git revision, and
# prints how each of its tests ends there: the proof that a check added with a fix fails without
# the fix. A maintainer's tool, not part of `.ci/run`.
#   .ci/downstream-against.sh REV [PACKAGE]
set -euo pipefail
rev="${1:?usage: .ci/downstream-against.sh REV [PACKAGE]}"
package="${2:-downstream}"
root="$(cd "$(dirname "$0")/.." && pwd)"
[[ -d "$root/.ci/$package" ]] || { echo "no package .ci/$package" >&2; exit 2; }
work="$root/.build-against"
git -C "$root" worktree remove --force "$work" 2> /dev/null || rm -rf "$work"
git -C "$root" worktree add --detach "$work" "$rev" > /dev/null
trap 'git -C "$root" worktree remove --force "$work"' EXIT
rm -rf "$work/.ci/$package"
mkdir -p "$work/.ci/$package"
cp -R "$root/.ci/$package/Package.swift" "$root/.ci/$package/Tests" "$work/.ci/$package/"
cd "$work/.ci/$package"
status=0
swift test > "$work/against.log" 2>&1 || status=$?
echo "$package against $(git -C "$root" rev-parse --short "$rev"): swift test exited $status"
grep -E "^(✔|✘) Test [A-Za-z_]+\(\) (passed|failed)" "$work/against.log" | sort
grep -E "deadlocked|step budget|Controlled schedule [0-9]+ failed" "$work/against.log" | sed -E 's/^[^A-Za-z]*//' | cut -c1-160 | sort | uniq -c | head -20
