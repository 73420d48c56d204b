#!/usr/bin/env bash
# Compares the 0.6-style queue paths of an earlier revision with the working tree, in one run:
# builds both in release (the revision in a worktree beside this one), then runs each row of
# Benchmarks/Compare/main.swift once per build per round, the two builds taking turns, and prints
# each row's median and range of ns per item and peak MiB, and the ratio of the medians.
#   Benchmarks/compare.sh REV [ROUNDS]      (default 15 rounds)
# Numbers from different runs or machines are not a comparison; this script is how to make one.
set -euo pipefail
rev="${1:?usage: Benchmarks/compare.sh REV [ROUNDS]}"
rounds="${2:-15}"
# shellcheck source=Benchmarks/base-tree.sh
source "$(dirname "$0")/base-tree.sh"

# One small package per side, depending by path on that side's tree.
make_side() {
  local side=$1 tree=$2
  mkdir -p "$work/$side/Sources/queue-rows"
  cp "$root/Benchmarks/Compare/main.swift" "$work/$side/Sources/queue-rows/main.swift"
  cat > "$work/$side/Package.swift" << MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "queue-rows-$side", platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "$tree")],
  targets: [.executableTarget(name: "queue-rows", dependencies: [.product(name: "AsyncQueue", package: "swift-queue-harness")])])
MANIFEST
  # A path dependency's new source files are not seen by an earlier build of the package: build
  # it from scratch.
  rm -rf "$work/$side/.build"
  (cd "$work/$side" && swift build -c release > "$work/$side-build.log" 2>&1) \
    || { cat "$work/$side-build.log"; echo "compare: the $side build failed" >&2; exit 1; }
}
make_side base "$base_tree"
make_side head "$root"

rows=(enqueue actor-enqueue enqueue-and-wait fifo-task chain fifo-task-main chain-main actor-task actor-naive
  cancellable-task)
results="$work/results.txt"
: > "$results"
for round in $(seq 1 "$rounds"); do
  for row in "${rows[@]}"; do
    for side in base head; do
      echo "$side $("$work/$side/.build/release/queue-rows" "$row")" >> "$results"
    done
  done
done

python3 - "$results" "$rev" "$rounds" << 'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    side, row, ns, mib = line.split()
    rows.setdefault(row, {}).setdefault(side, []).append((float(ns), float(mib)))
print(f"{'row':<18} {'build':<6} {'ns/item median (range)':<28} {'peak MiB median (range)':<26}")
for row, sides in rows.items():
    medians = {}
    for side in ("base", "head"):
        ns = [v[0] for v in sides[side]]; mib = [v[1] for v in sides[side]]
        medians[side] = (statistics.median(ns), statistics.median(mib))
        label = sys.argv[2] if side == "base" else "head"
        print(f"{row:<18} {label:<6} {medians[side][0]:>8.1f} ({min(ns):.1f}–{max(ns):.1f}){'':<6} "
              f"{medians[side][1]:>7.1f} ({min(mib):.1f}–{max(mib):.1f})")
    print(f"{row:<18} ratio  head/base: time {medians['head'][0] / medians['base'][0]:.2f}×, "
          f"memory {medians['head'][1] / medians['base'][1]:.2f}×")
# Task(on:) against its naive baseline, within each build (time and peak memory ratios of the
# medians). The main-actor rows hold every task alive at the loop's end, so their memory ratio
# is close to the ratio of heap per live task.
pairs = [("fifo-task", "chain"), ("fifo-task-main", "chain-main"), ("actor-task", "actor-naive"),
         ("cancellable-task", "chain")]
print("Task(on:) / naive baseline, within each build:")
for row, baseline in pairs:
    if row not in rows or baseline not in rows:
        continue
    for side in ("base", "head"):
        label = sys.argv[2] if side == "base" else "head"
        t = statistics.median(v[0] for v in rows[row][side]) / statistics.median(v[0] for v in rows[baseline][side])
        m = statistics.median(v[1] for v in rows[row][side]) / statistics.median(v[1] for v in rows[baseline][side])
        print(f"  {row + ' / ' + baseline:<30} {label:<8} time {t:.2f}×, memory {m:.2f}×")
print(f"({sys.argv[3]} rounds, builds taking turns)")
PY
