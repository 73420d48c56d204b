#!/usr/bin/env bash
# A downstream package (.ci/downstream, depending on this one by path) runs its Swift Testing
# suite under `.controlledScheduling(.random(100))`, as a user would. Checks what the user sees:
# the actor-reentrancy bugs (a lost update across a synchronous method of another actor; a cache
# whose mock server never suspends) fail on an early schedule with a replay line, the replay
# fails again on its first schedule, and the fixed versions pass. A worker that skips its cleanup
# when cancelled fails under cancellation choices, with the cancellation named and replayed.
# A check-then-act by plain `Task {}`s across two calls of an actor fails early too (every hop of an
# unstructured task is a choice), and its fix passes; a Dispatch callback due in 1 ms beats a
# 200 ms sleep under every strategy, as on real threads; an exhaustive search of a body whose
# reply another thread posted does not claim its space exhausted. A test that keeps a static
# between runs passes (each schedule in a fresh process), and a real bug in such a test still fails.
# Code that leaves the global executor needs no declaration: main-actor tasks keep their creation
# order under every strategy, a completion handler called on a Dispatch queue passes, and a
# Dispatch-backed actor's check-then-act bug fails as the bug (not a deadlock), naming the executor,
# with a replay that fails again. `.ci/downstream-against.sh REV` runs this suite against an older
# build, to show that these checks fail there.
set -euo pipefail
cd "$(dirname "$0")/downstream"

log=.build/downstream-test.log
mkdir -p .build
status=0
swift test > "$log" 2>&1 || status=$?
test "$status" -ne 0 || { cat "$log"; echo "downstream: the buggy tests should fail" >&2; exit 1; }

fail() { cat "$log"; echo "downstream: $1" >&2; exit 1; }
# shellcheck source=.ci/replay.sh
source ../replay.sh
replay_fails_again() { # test, replay line
  replay_fails_alone . "$2" .build/downstream-replay.log || fail "the replay of $1"
}
for test in buggyAccountLosesNoUpdate buggyCacheDownloadsOnce buggyQueueBackedCatalogDownloadsOnce buggyBoothSellsTheLastTicketOnce; do
  grep -q "✘ Test $test() failed" "$log" || fail "$test did not fail"
  schedule="$(grep -A3 "✘ Test $test() recorded an issue" "$log" | grep -Eo "[Cc]ontrolled schedule [0-9]+" | grep -Eo '[0-9]+' | head -1)"
  [[ -n "$schedule" && "$schedule" -le 10 ]] || fail "$test failed on schedule '${schedule}', expected <= 10"
  replay="$(replay_line "$log" "$test" "[^']*")"
  [[ -n "$replay" ]] || fail "$test printed no replay line"
  echo "downstream: $test fails on schedule $schedule; replay: $replay"
  replay_fails_again "$test" "$replay"
done
for test in fixedAccountLosesNoUpdate fixedCacheDownloadsOnce fixedWorkerGivesBackItsLease \
  mainActorTasksKeepCreationOrderRandom mainActorTasksKeepCreationOrderPCT mainActorTasksKeepCreationOrderPortfolio \
  mainActorTasksKeepCreationOrderExhaustive completionHandlerBridgeLoadsBothProfiles fixedQueueBackedCatalogDownloadsOnce \
  fixedBoothSellsTheLastTicketOnce callbackBeatsTheSleepRandom callbackBeatsTheSleepPCT callbackBeatsTheSleepExhaustive \
  exhaustiveSearchDoesNotClaimASpaceWithDispatchWork; do
  grep -q "✔ Test $test() passed" "$log" || fail "$test did not pass"
done
# The Dispatch-backed actor's bug is the bug: a failed expectation, not a deadlock, and the failure
# says which work ran outside the harness.
test=buggyQueueBackedCatalogDownloadsOnce
grep -A1 "✘ Test $test() recorded an issue" "$log" | grep -q "Expectation failed: await catalog.downloads == 1" \
  || fail "$test did not fail on its expectation"
! grep -A2 "✘ Test $test() recorded an issue" "$log" | grep -q "deadlocked" || fail "$test was reported as a deadlock"
grep -q "Outside the harness: [0-9]* job(s) came back from work that ran outside the harness (on LegacyQueueExecutor)" "$log" \
  || fail "$test did not say what ran outside the harness"
echo "downstream: main-actor order, a completion-handler bridge and a Dispatch-backed actor pass with no declaration; its bug fails as the bug"
# Cancellation as a schedule choice: the failure names the cancellation, its schedule text carries
# it, and the replay (which has no other way to cancel) fails again.
test=buggyWorkerGivesBackItsLease
grep -q "✘ Test $test() failed" "$log" || fail "$test did not fail"
grep -Eq "Cancelled by the schedule: task 2 cancelled at step [0-9]+" "$log" || fail "$test did not name the cancellation"
replay="$(replay_line "$log" "$test" "s1:[^']*[+]c2@[0-9]+[^']*")"
[[ -n "$replay" ]] || fail "$test printed no replay line with its cancellation"
echo "downstream: $test fails with its cancellation named; replay: $replay"
replay_fails_again "$test" "$replay"

# A schedule too long for a command line: the failure saves it in a file, names the file in its
# replay line, and that line runs as printed (and fails again on its one schedule).
test=pollersThatNeverStop
grep -q "✘ Test $test() failed" "$log" || fail "$test did not fail"
grep -Eq "Schedule: [0-9]+ choices, too long to print here; saved in /[^ ]+\.schedule" "$log" \
  || fail "$test did not say where its long schedule was saved"
replay="$(grep -Eo "QUEUE_TESTING_SCHEDULE_FILE='[^']+' swift test --filter '\^[^']*'" "$log" | grep -F "$test\(\)" | head -1)"
[[ -n "$replay" ]] || fail "$test printed no replay line naming its schedule file"
[[ "${#replay}" -lt 1000 ]] || fail "$test's replay line is ${#replay} characters long"
echo "downstream: $test saved its long schedule; replay: $replay"
replay_fails_again "$test" "$replay"

# A test that keeps state between runs (a static): schedule 2 fails in the process schedule 1 ran
# in, passes alone in a fresh one, so the trait says so and runs each schedule in a fresh process,
# where it passes. The same with a real bug: the fresh processes find the bug, and the test fails
# on it, with a replay line that fails again.
test=aTestThatKeepsAStaticFlagPasses
grep -q "✔ Test $test() passed" "$log" || fail "$test did not pass"
grep -q "$test() keeps state between runs: controlled schedule 2 failed" "$log" || fail "$test was not said to keep state"
grep -q "With a fresh process per schedule (random, 10 schedules, seed 1), all 10 schedules pass." "$log" \
  || fail "$test did not pass with a fresh process per schedule"
test=freshProcessesSpendTheDefaultBudget
grep -q "✔ Test $test() passed" "$log" || fail "$test did not pass"
grep -q "$test() keeps state between runs" "$log" || fail "$test was not said to keep state"
grep -Eq "With a fresh process per schedule \(portfolio[^)]*\), the [0-9]+ schedule\(s\) run pass; the series stopped there, as in one process: 12 schedules in a row gave no new interleaving" "$log" \
  || fail "$test's fresh processes did not spend the default's budget"
test=aBugInATestThatKeepsAStaticFlagIsStillFound
grep -q "✘ Test $test() failed" "$log" || fail "$test did not fail"
grep -q "$test() keeps state between runs" "$log" || fail "$test was not said to keep state"
grep -Eq "schedule [0-9]+ fails on its own" "$log" || fail "$test's bug was not found in a fresh process"
grep -A1 "✘ Test $test() recorded an issue" "$log" | grep -q "Expectation failed: await ledger.balance == 80" \
  || fail "$test did not fail on its bug"
replay="$(replay_line "$log" "$test" "[^']*")"
[[ -n "$replay" ]] || fail "$test printed no replay line"
replay_fails_again "$test" "$replay"
echo "downstream: a test that keeps a static passes with a fresh process per schedule; a bug in one is still found; replay: $replay"

echo "downstream: buggy versions fail early with a replay line that reproduces them; fixed versions pass 100 schedules"

