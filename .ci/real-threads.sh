#!/usr/bin/env bash
# What the harness claims of real threads, checked on real threads, in debug and release (the
# optimizer can change which hops give an executor up). `.ci/real-threads` holds the hop table
# of the harness's "Hops out of a serial executor keep their order": tasks that leave a serial
# executor (the main actor, `MainActor.queue`, a default actor, an actor on a custom executor)
# in order reach their next actor in that order, every run. The harness keeps those cells in
# order on every schedule; if real threads ever reordered one, that would be a harness defect in
# the other direction (an interleaving the runtime allows that the harness never offers), so a
# reordered cell fails this stage. The cells that start on the generic executor are printed with
# how often they reordered.
set -euo pipefail
cd "$(dirname "$0")/real-threads"
mkdir -p .build
for configuration in debug release; do
  log=".build/build-$configuration.log"
  swift build -c "$configuration" > "$log" 2>&1 || { cat "$log"; exit 1; }
  echo "real-threads ($configuration): 500 runs of 20 tasks per cell"
  ".build/$configuration/hop-order" 500 20
  ".build/$configuration/queue-guarantees" 300
done
