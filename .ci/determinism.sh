#!/usr/bin/env bash
# Same scenario and schedule → same trace hash in a debug and a release build (separate processes).
# The schedule is the first failure `run` finds against a broken queue: a non-trivial interleaving.
set -euo pipefail
cd "$(dirname "$0")/.."

scenario=Scenarios/fifo/suspend-between-work.scenario
swift build --product queue-fuzz
swift build -c release --product queue-fuzz
debug=.build/debug/queue-fuzz
release=.build/release/queue-fuzz

set +e
replay_line="$("$debug" run "$scenario" --queue-impl task-per-enqueue | grep -m1 'replay: ')"
set -e
schedule="$(echo "$replay_line" | grep -Eo 's1:[0-9a-z.+@]*')"
echo "schedule: ${schedule:?no failing schedule found}"

hash_of() {
  "$1" replay "$scenario" --schedule "$schedule" --queue-impl task-per-enqueue | grep 'trace hash:' || true
}
debug_hash="$(hash_of "$debug")"
release_hash="$(hash_of "$release")"
echo "debug:   $debug_hash"
echo "release: $release_hash"
if [[ -z "$debug_hash" || "$debug_hash" != "$release_hash" ]]; then
  echo "determinism: debug and release traces differ" >&2
  exit 1
fi
echo "determinism: debug and release give the same trace hash"
