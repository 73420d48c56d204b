#!/usr/bin/env bash
# The cost of ConcurrentQueue and AsyncSemaphore: builds Benchmarks/WidthAndPermits/main.swift
# against the working tree in release, runs each row once per round (one process per row, the
# rows taking turns), and prints each row's median and range of ns per item and peak MiB.
#   Benchmarks/width-and-permits.sh [ROUNDS]      (default 9 rounds)
# Rows: 100,000 items through a width-4 queue with a barrier every 100 (and the same shape on a
# concurrent DispatchQueue, synchronous blocks); 1,000 and 100,000 items drained from behind held
# items (flat per item when the cost does not grow with the line); 1,000,000 uncontended
# wait/signal pairs; 10,000 waiters woken by signals.
set -euo pipefail
rounds="${1:-9}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build-compare/width-rows"
mkdir -p "$work/Sources/width-rows"
cp "$root/Benchmarks/WidthAndPermits/main.swift" "$work/Sources/width-rows/main.swift"
cat > "$work/Package.swift" << MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "width-rows", platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "$root")],
  targets: [.executableTarget(name: "width-rows", dependencies: [.product(name: "AsyncQueue", package: "swift-queue-harness")])])
MANIFEST
rm -rf "$work/.build/release" "$work/.build/"*-*-*
(cd "$work" && swift build -c release > "$work/build.log" 2>&1) || { cat "$work/build.log"; exit 1; }
results="$work/results.txt"
: > "$results"
for _ in $(seq 1 "$rounds"); do
  for row in width4-barrier100 dispatch-barrier100 pending-1k pending-100k semaphore-pairs semaphore-wake-10k; do
    "$work/.build/release/width-rows" "$row" >> "$results"
  done
done
python3 - "$results" "$rounds" << 'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, ns, mib = line.split()
    rows.setdefault(name, []).append((float(ns), float(mib)))
print(f"{'row':22} {'ns/item median (range)':28} {'peak MiB median (range)':24}")
for name, values in rows.items():
    ns = [v[0] for v in values]
    mib = [v[1] for v in values]
    print(f"{name:22} {statistics.median(ns):9.1f} ({min(ns):.1f}–{max(ns):.1f})"
          f"      {statistics.median(mib):7.1f} ({min(mib):.1f}–{max(mib):.1f})")
if "pending-1k" in rows and "pending-100k" in rows:
    small = statistics.median(v[0] for v in rows["pending-1k"])
    large = statistics.median(v[0] for v in rows["pending-100k"])
    print(f"per item, 100,000 pending over 1,000 pending: {large / small:.2f}×")
print(f"({sys.argv[2]} rounds, rows taking turns)")
PY
