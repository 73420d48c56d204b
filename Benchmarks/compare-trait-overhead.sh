#!/usr/bin/env bash
# What the `.controlledScheduling()` trait adds to a suite of trivial tests, for an earlier
# revision and the working tree, in one run: a package per side with 60 trivial Swift Testing tests
# twice over, once plain and once under the default trait (the default series and its budget), built in debug;
# then each round runs, for each side in turn, the plain tests and the controlled ones
# (`swift test --skip-build --filter`), and the script prints the medians and ranges of each, and
# the cost per test on top of its plain cost.
#   Benchmarks/compare-trait-overhead.sh REV [ROUNDS]    (default 5 rounds)
set -euo pipefail
rev="${1:?usage: Benchmarks/compare-trait-overhead.sh REV [ROUNDS]}"
rounds="${2:-5}"
# shellcheck source=Benchmarks/base-tree.sh
source "$(dirname "$0")/base-tree.sh"

make_side() {
  local side=$1 tree=$2
  local dir="$work/trait-$side"
  mkdir -p "$dir/Tests/TrivialTests"
  cat > "$dir/Package.swift" << MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "trait-overhead-$side", platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-queue-harness", path: "$tree")],
  targets: [.testTarget(name: "TrivialTests", dependencies: [.product(name: "QueueTesting", package: "swift-queue-harness")])])
MANIFEST
  {
    echo "import QueueTesting"
    echo "import Testing"
    for suite in Plain Controlled; do
      if [[ $suite == Controlled ]]; then echo "@Suite(.controlledScheduling())"; else echo "@Suite"; fi
      echo "struct ${suite}Tests {"
      for i in $(seq 1 60); do echo "  @Test func trivial$i() { #expect($i + 1 == $((i + 1))) }"; done
      echo "}"
    done
  } > "$dir/Tests/TrivialTests/TrivialTests.swift"
  # A path dependency's new source files are not seen by an earlier build of the package: build
  # it from scratch.
  rm -rf "$dir/.build"
  (cd "$dir" && swift build --build-tests > "$work/trait-$side-build.log" 2>&1) \
    || { cat "$work/trait-$side-build.log"; echo "compare-trait-overhead: the $side build failed" >&2; exit 1; }
}
make_side base "$base_tree"
make_side head "$root"

results="$work/trait-results.txt"
: > "$results"
for round in $(seq 1 "$rounds"); do
  for side in base head; do
    for suite in Plain Controlled; do
      start=$(date +%s.%N)
      (cd "$work/trait-$side" && swift test --skip-build --filter "${suite}Tests" > "$work/trait-$side-$suite.log" 2>&1) \
        || { cat "$work/trait-$side-$suite.log"; exit 1; }
      end=$(date +%s.%N)
      grep -q "Test run with 60 tests" "$work/trait-$side-$suite.log" || { cat "$work/trait-$side-$suite.log"; exit 1; }
      echo "$side $suite $(echo "$end - $start" | bc)" >> "$results"
    done
  done
done

python3 - "$results" "$rev" "$rounds" << 'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    side, suite, seconds = line.split()
    runs.setdefault((side, suite), []).append(float(seconds))
for side in ("base", "head"):
    label = sys.argv[2] if side == "base" else "head"
    plain, controlled = runs[(side, "Plain")], runs[(side, "Controlled")]
    extra = (statistics.median(controlled) - statistics.median(plain)) / 60 * 1000
    print(f"{label:<8} plain {statistics.median(plain):.2f} s ({min(plain):.2f}–{max(plain):.2f}), "
          f"controlled {statistics.median(controlled):.2f} s ({min(controlled):.2f}–{max(controlled):.2f}): "
          f"{extra:.1f} ms per test on top of its plain cost")
print(f"(60 trivial tests, the default series under the trait; {sys.argv[3]} rounds, sides taking turns; "
      "each time is a whole `swift test --skip-build` command)")
PY
