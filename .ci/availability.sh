#!/usr/bin/env bash
# Apple availability, checked on Linux (see availability.py): every use of a declaration that
# Apple platforms ship after the package floor (macOS 15, iOS 18, tvOS 18, watchOS 11,
# visionOS 2) must sit under a matching @available or #available. First the check must bite:
# planted uses (an SDK API, the executor SPI, a package declaration, an unknown runtime symbol)
# are reported at exactly their lines, and covered uses next to them are not. Then the package
# itself must pass. Needs the debug build of the tests (`swift test` / `swift build --build-tests`).
set -euo pipefail
cd "$(dirname "$0")/.."
test -f .build/debug.yaml || swift build --build-tests

plants=.ci/availability-plants
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
status=0
python3 .ci/availability.py --modules AsyncQueue,QueueTestingEngine \
  --plant "AsyncQueue=$plants/PlantedAsyncQueue.swift" --plant "QueueTestingEngine=$plants/PlantedEngine.swift" \
  > "$output" || status=$?
test "$status" -eq 1 || { cat "$output"; echo "availability: the planted uses should fail the check (exit 1), got $status"; exit 1; }
reported="$(grep -Eo 'Planted[A-Za-z]+\.swift:[0-9]+' "$output" | sort -u | tr '\n' ' ')"
expected="PlantedAsyncQueue.swift:13 PlantedAsyncQueue.swift:3 PlantedEngine.swift:13 PlantedEngine.swift:14 PlantedEngine.swift:19 PlantedEngine.swift:6 "
if [ "$reported" != "$expected" ]; then
  cat "$output"
  echo "availability: planted uses reported at [$reported], expected [$expected]"
  exit 1
fi
grep -q "PlantedAsyncQueue.swift:13:.*needs iOS 26, tvOS 26, watchOS 26, visionOS 26;" "$output" \
  || { cat "$output"; echo "availability: '#available(macOS 26, *)' should leave the other platforms uncovered"; exit 1; }
echo "availability: the planted uncovered uses are caught at their lines ($(grep -c ': error: ' "$output") reports), the covered ones pass"

python3 .ci/availability.py --list-inactive
