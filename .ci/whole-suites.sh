#!/usr/bin/env bash
# Whole Swift Testing suites of well-known packages, as our users turn the trait on: each
# package's own test suite is checked out at a release, run plain, then given QueueTesting
# (its manifest gains the dependency) and `.controlledScheduling()` on every `@Test` by a
# script (`.ci/whole_suites.py`, text edits a user would make with sed), and run again. Any test
# that passes plain and fails under the trait is a false alarm of the harness and fails this
# stage; both wall times are printed. Nothing of those packages is committed: they come from the
# package registry's copies at CI time. A suite may also be a directory under `.ci/` holding a
# port of a suite that is not among those copies (the anchor library's, against our queues); a
# `RACES` file there names its tests that race on real threads, which the harness must fail.
#   .ci/whole-suites.sh [OWNER/NAME@VERSION | .ci/DIRECTORY ...]    (the list below by default)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build-whole-suites"
suites=("$@")
[[ ${#suites[@]} -gt 0 ]] || suites=(apple/swift-distributed-tracing@1.7.3 vapor/async-kit@1.22.0 .ci/anchor-suite)
mkdir -p "$work"
status=0
for suite in "${suites[@]}"; do
  races=()
  if [[ "$suite" == .ci/* ]]; then
    repository="local/$(basename "$suite")"
    dir="$work/${repository#*/}"
    rm -rf "$dir"
    mkdir -p "$dir"
    (cd "$root/$suite" && tar --exclude=.build -cf - .) | (cd "$dir" && tar -xf -)
    # The copy sits two levels further from the harness than the original does.
    sed -i "s|path: \"\.\./\.\.\"|path: \"$root\"|" "$dir/Package.swift"
    [[ -f "$dir/RACES" ]] && races=("$dir/RACES")
    echo "== $suite"
  else
    repository="${suite%@*}"
    version="${suite#*@}"
    dir="$work/${repository#*/}"
    rm -rf "$dir"
    git clone --quiet --branch "$version" --depth 1 "https://github.com/$repository" "$dir" 2> /dev/null \
      || git clone --quiet --branch "$version" "https://github.com/$repository" "$dir"
    echo "== $repository $version"
  fi
  (cd "$dir" && swift build --build-tests > "$work/${repository#*/}-build-plain.log" 2>&1) \
    || { cat "$work/${repository#*/}-build-plain.log"; exit 1; }
  plain="$work/${repository#*/}-plain.log"
  (cd "$dir" && swift test --skip-build > "$plain" 2>&1) || true
  python3 "$root/.ci/whole_suites.py" instrument "$dir" "$root"
  (cd "$dir" && swift build --build-tests > "$work/${repository#*/}-build-trait.log" 2>&1) \
    || { cat "$work/${repository#*/}-build-trait.log"; exit 1; }
  trait="$work/${repository#*/}-trait.log"
  (cd "$dir" && swift test --skip-build > "$trait" 2>&1) || true
  if ! python3 "$root/.ci/whole_suites.py" compare "$plain" "$trait" "${races[@]}"; then
    grep -E "✘|recorded an issue" "$trait" | head -60 || true
    status=1
  fi
done
exit "$status"
