#!/usr/bin/env bash
# Checks that the thread sanitizer catches a real race here and accepts LockedState (see the .swift file).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
swiftc -swift-version 6 -sanitize=thread -parse-as-library -module-name TSanCanary -package-name TSanCanary \
  Sources/AsyncQueue/Internal/LockedState.swift .ci/tsan-canary.swift -o "$out/canary"
export SWIFT_BACKTRACE=enable=no
if "$out/canary" racy >"$out/racy.log" 2>&1 || ! grep -q "WARNING: ThreadSanitizer" "$out/racy.log"; then
  echo "tsan-canary: FAILED: the sanitizer did not report a deliberate race" >&2
  cat "$out/racy.log" >&2
  exit 1
fi
if ! "$out/canary" locked >"$out/locked.log" 2>&1 || grep -q "ThreadSanitizer" "$out/locked.log"; then
  echo "tsan-canary: FAILED: LockedState was reported as racing" >&2
  cat "$out/locked.log" >&2
  exit 1
fi
echo "tsan-canary: the sanitizer reports a deliberate race and accepts LockedState"
