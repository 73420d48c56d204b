#!/usr/bin/env bash
# Compares the controlled executor's cost per step of an earlier revision with the working tree,
# in one run: builds Benchmarks/HarnessCompare/main.swift against both (the revision in a
# worktree beside this one), in debug and in release, then runs every row once per build per
# round, the builds taking turns, and prints each row's median and range of µs per task and
# steps per second, and the ratio of the medians.
#   Benchmarks/compare-harness.sh REV [ROUNDS] [CONFIGS]   (default 3 rounds, "debug release")
# A row is SHAPE N STRATEGY: bodies of N = 100, 1,000 and 3,000 tasks (plain tasks hopping onto an
# actor, Task(on: FIFOQueue) items, a task group) under seeded random, PCT depth 3 and the
# oldest-first schedule, and "plain" rows that run the body on real threads without the harness
# (the runtime's own cost per task). Numbers from different runs or machines are not a comparison.
set -euo pipefail
rev="${1:?usage: Benchmarks/compare-harness.sh REV [ROUNDS] [CONFIGS]}"
rounds="${2:-3}"
configs="${3:-debug release}"
# shellcheck source=Benchmarks/base-tree.sh
source "$(dirname "$0")/base-tree.sh"

make_side() {
  local side=$1 tree=$2
  mkdir -p "$work/harness-$side/Sources/harness-rows"
  cp "$root/Benchmarks/HarnessCompare/main.swift" "$work/harness-$side/Sources/harness-rows/main.swift"
  cat > "$work/harness-$side/Package.swift" << MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "harness-rows-$side", platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "$tree")],
  targets: [.executableTarget(name: "harness-rows", dependencies: [
    .product(name: "AsyncQueue", package: "swift-queue-harness"),
    .product(name: "QueueTesting", package: "swift-queue-harness")])])
MANIFEST
  # A path dependency's new source files are not seen by an earlier build of the package: build
  # it from scratch (its package checkouts are kept).
  rm -rf "$work/harness-$side/.build/debug" "$work/harness-$side/.build/release" "$work/harness-$side/.build/"*-*-*
  for config in $configs; do
    (cd "$work/harness-$side" && swift build -c "$config" > "$work/harness-$side-$config.log" 2>&1) \
      || { cat "$work/harness-$side-$config.log"; echo "compare-harness: the $side $config build failed" >&2; exit 1; }
  done
}
make_side base "$base_tree"
make_side head "$root"

results="$work/harness-results.txt"
: > "$results"
for round in $(seq 1 "$rounds"); do
  for config in $configs; do
    for shape in actor-hops fifo-items task-group; do
      for n in 100 1000 3000; do
        for strategy in plain random pct oldest; do
          for side in base head; do
            echo "$config $side $("$work/harness-$side/.build/$config/harness-rows" "$shape" "$n" "$strategy")" >> "$results"
          done
        done
      done
    done
  done
done

python3 - "$results" "$rev" "$rounds" << 'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    config, side, row, us, rate, steps = line.split()
    rows.setdefault((config, row), {}).setdefault(side, []).append((float(us), float(rate), int(steps)))
print(f"{'config':<8}{'row':<24} {'build':<8} {'µs/task median (range)':<26} {'k steps/s median (range)':<26} steps/run")
for (config, row), sides in rows.items():
    medians = {}
    for side in ("base", "head"):
        us = [v[0] for v in sides[side]]; rate = [v[1] / 1000 for v in sides[side]]
        medians[side] = (statistics.median(us), statistics.median(rate))
        label = sys.argv[2] if side == "base" else "head"
        print(f"{config:<8}{row:<24} {label:<8} {medians[side][0]:>8.2f} ({min(us):.2f}–{max(us):.2f}){'':<4} "
              f"{medians[side][1]:>8.0f} ({min(rate):.0f}–{max(rate):.0f}){'':<6} {sides[side][0][2]}")
    print(f"{config:<8}{row:<24} ratio    head/base: time per task {medians['head'][0] / medians['base'][0]:.2f}×")
# Flatness, within the head build: cost per task at N = 3,000 over N = 100, and PCT over random.
print("head: µs per task at N = 3000 over N = 100, and PCT over random at the same N")
for (config, row) in rows:
    if not row.endswith("-3000-random") and not row.endswith("-3000-pct") and not row.endswith("-3000-plain"):
        continue
    small = row.replace("-3000-", "-100-")
    big_us = statistics.median(v[0] for v in rows[(config, row)]["head"])
    small_us = statistics.median(v[0] for v in rows[(config, small)]["head"])
    line = f"  {config:<8}{row:<24} N 3000/100: {big_us / small_us:.2f}×"
    if row.endswith("-pct"):
        random = statistics.median(v[0] for v in rows[(config, row.replace('-pct', '-random'))]["head"])
        line += f", PCT/random: {big_us / random:.2f}×"
    print(line)
print(f"({sys.argv[3]} rounds, builds taking turns)")
PY
