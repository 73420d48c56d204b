#!/usr/bin/env bash
# Tests of well-known packages (swift-async-algorithms' merge, zip, and combineLatest, adjacentPairs and
# chain iterating an endless synchronous base until cancelled, swift-clocks' TestClock,
# swift-concurrency-extras' ActorIsolated and withMainSerialExecutor, swift-nio's repeated task on
# an event loop, and the suites of two libraries our ConcurrentQueue and AsyncSemaphore stand in
# for, run against ours plain and under the trait; the anchor library's whole suite runs in the
# whole-suite stage), ported as their
# authors wrote them into .ci/real-suites, a package that depends on this one by path, run under
# the default `.controlledScheduling()` trait. Each passes on real threads, so each must pass under
# every schedule here: a failure is a false alarm of the harness. Among them, tasks that loop on
# `Task.yield()` for another task (TestClock's "mega yield"), endless merges that another task
# cancels, 1,000 tasks kept in order by another tool's executor hook,
# and a sleep during which an event loop's thread does the work the test then checks (on a group
# the run started, and on NIO's shared singleton, which the run only wakes: either way the sleep
# waits in real time). `.ci/downstream-against.sh REV real-suites` runs them
# against an older build.
set -euo pipefail
cd "$(dirname "$0")/real-suites"
log=.build/real-suites.log
mkdir -p .build
status=0
swift test > "$log" 2>&1 || status=$?
if [[ "$status" -ne 0 ]] || grep -q "✘" "$log"; then
  cat "$log"
  echo "real-suites: a test that passes on real threads failed under the harness" >&2
  exit 1
fi
count="$(grep -Eo 'Test run with [0-9]+ tests' "$log" | grep -Eo '[0-9]+' | tail -1)"
[[ "${count:-0}" -ge 20 ]] || { cat "$log"; echo "real-suites: expected at least 20 tests, ran ${count:-none}" >&2; exit 1; }
echo "real-suites: $count ported tests pass under the default trait, in $(grep -Eo 'Test run with [0-9]+ tests.* passed after [0-9.]+ seconds' "$log" | grep -Eo '[0-9.]+ seconds' | tail -1)"

# Without the job slice, combineLatest's endless upstream keeps its run's one thread, and the test
# is reported stuck (here after 2 s): the slice is what makes it pass above.
status=0
QUEUE_TESTING_JOB_SLICE=off QUEUE_TESTING_JOB_TIME_LIMIT=2 swift test --skip-build --filter 'TestCombineLatest2' \
  > .build/real-suites-no-slice.log 2>&1 || status=$?
if [[ "$status" -eq 0 ]] || ! grep -q "test_cancellation() is stuck: " .build/real-suites-no-slice.log; then
  cat .build/real-suites-no-slice.log
  echo "real-suites: without a job slice, combineLatest's test_cancellation should be stuck" >&2
  exit 1
fi
echo "real-suites: without a job slice, combineLatest's test_cancellation is stuck, as expected"
