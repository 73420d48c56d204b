#!/usr/bin/env bash
# The linearizability checker's speed and a check's schedules per second, in debug and release:
# builds `LinearizabilityTimings/main.swift` against this tree in a package of its own (it reaches
# the checker through `@_spi(Benchmarks)`), then runs it ROUNDS times per configuration, taking
# turns, and prints every row (numbers in Benchmarks/README.md).
#   Benchmarks/linearizability.sh [ROUNDS] [CONFIGS]
set -euo pipefail
rounds="${1:-3}"
configs="${2:-debug release}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build-bench-linearizability"
mkdir -p "$work/Sources/linearizability-timings"
cp "$root/Benchmarks/LinearizabilityTimings/main.swift" "$work/Sources/linearizability-timings/main.swift"
cat > "$work/Package.swift" << MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "linearizability-timings", platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "$root")],
  targets: [.executableTarget(name: "linearizability-timings", dependencies: [
    .product(name: "QueueTesting", package: "swift-queue-harness"),
  ], swiftSettings: [.swiftLanguageMode(.v6)])]
)
MANIFEST
for config in $configs; do
  (cd "$work" && swift build -c "$config" > "$work/build-$config.log" 2>&1) || { cat "$work/build-$config.log"; exit 1; }
done
for round in $(seq 1 "$rounds"); do
  for config in $configs; do
    echo "== $config, round $round"
    (cd "$work" && "$(swift build -c "$config" --show-bin-path)/linearizability-timings")
  done
done
