#!/usr/bin/env bash
# Runs today's downstream suite (.ci/downstream) against an older build of this package, given as
# a git revision, and prints how each of its tests ends there: the proof that a check added with a
# fix fails without the fix. A maintainer's tool, not part of `.ci/run`.
#   .ci/downstream-against.sh REV
set -euo pipefail
rev="${1:?usage: .ci/downstream-against.sh REV}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build-against"
git -C "$root" worktree remove --force "$work" 2> /dev/null || rm -rf "$work"
git -C "$root" worktree add --detach "$work" "$rev" > /dev/null
trap 'git -C "$root" worktree remove --force "$work"' EXIT
rm -rf "$work/.ci/downstream/Tests"
cp -R "$root/.ci/downstream/Tests" "$work/.ci/downstream/Tests"
cd "$work/.ci/downstream"
status=0
swift test > "$work/against.log" 2>&1 || status=$?
echo "downstream against $(git -C "$root" rev-parse --short "$rev"): swift test exited $status"
grep -E "^(✔|✘) Test [A-Za-z]+\(\) (passed|failed)" "$work/against.log" | sort
grep -E "deadlocked|Controlled schedule [0-9]+ failed" "$work/against.log" | sort | uniq -c | head -20
