# Sourced by the compare scripts: sets `root`, `work` (.build-compare, made if missing) and
# `base_tree`, a worktree of the revision `rev` named by its commit (a moving name such as HEAD
# or a branch must not reuse a stale tree), added on first use. A name that is no commit stops
# the script with exit 2.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/.build-compare"
mkdir -p "$work"
commit="$(git -C "$root" rev-parse --verify --short "$rev^{commit}")" \
  || { echo "$(basename "$0"): '$rev' names no commit" >&2; exit 2; }
base_tree="$work/tree-$commit"
if [[ ! -d "$base_tree" ]]; then
  git -C "$root" worktree add --detach "$base_tree" "$rev" > /dev/null
fi
