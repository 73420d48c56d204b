#!/usr/bin/env bash
# A controlled test that can never finish must not take the suite down: in .ci/stuck-suite, the
# stuck Swift Testing test fails with its deadlock report and replay line, a test that spins
# without awaiting under .timeLimit(.minutes(1)) is ended by the watchdog with a report of the stuck
# job (one waiting on a semaphore that nothing signals while it waits, with the semaphore named;
# one waiting on a semaphore another task signals passes, the run going on beside it), one that
# resumes a continuation twice from Dispatch callbacks crashes in its first schedule, one that
# drops its continuation is reported at once quoting the runtime, one that calls fatalError shows the message with its file and line, and a crash (here a
# continuation resumed twice on the third schedule) names the schedule it happened in and the line
# that runs the series to it, every other test
# reports (in parallel and with --no-parallel), Swift Testing prints its summary, the xUnit file
# is complete, XCTest goes on after its own stuck test, the run exits non-zero, no process of the
# suite is left behind, a child that stops showing it is alive is ended by its parent, and a child
# whose parent is killed with SIGKILL ends too. The processes it checks are found by a mark in their
# environment, never by a name pattern that other packages' tests on the same machine could match.
set -euo pipefail
cd "$(dirname "$0")/stuck-suite"

# Every process this script starts carries this mark in its environment, and the processes they
# start inherit it: the checks below look at those processes only, never at another package's
# tests that happen to run on the same machine.
export STUCK_SUITE_RUN="stuck-suite-$$-$RANDOM$RANDOM"
ours() { # the pids of this run's processes whose command line matches the extended regex $1
  local environ pid
  for environ in /proc/[0-9]*/environ; do
    pid="${environ#/proc/}"
    pid="${pid%/environ}"
    [[ "$pid" != "$$" ]] || continue
    # A process may end while it is looked at: its files are gone, and it is not ours to report.
    { tr '\0' '\n' < "$environ"; } 2> /dev/null | grep -qx "STUCK_SUITE_RUN=$STUCK_SUITE_RUN" || continue
    { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2> /dev/null | grep -Eq -- "$1" && echo "$pid"
  done
  return 0
}
mkdir -p .build
swift build --build-tests > .build/stuck-suite-build.log 2>&1 || { cat .build/stuck-suite-build.log; exit 1; }

check() {
  local log=$1
  fail() { cat "$log"; echo "stuck-suite: $1" >&2; exit 1; }
  for test in first second third fourth fifth finishes waitsOnASemaphoreAnotherTaskSignals; do
    grep -q "✔ Test $test() passed" "$log" || fail "$test() did not report a pass"
  done
  grep -q "✘ Test waitsForever() failed" "$log" || fail "waitsForever() did not fail"
  grep -q "waits at continuation 'reply', which nothing resumes" "$log" || fail "no deadlock report"
  grep -Eo "QUEUE_TESTING_SCHEDULE='s1:' swift test --filter '\^StuckSuiteTests[^']*'" "$log" | grep -F 'waitsForever\(\)' > /dev/null \
    || fail "no replay line"
  grep -q "waitsForever() did not finish" "$log" || fail "the report does not say which test did not finish"
  grep -q "✘ Test leaksItsContinuation() failed" "$log" || fail "leaksItsContinuation() did not fail"
  grep -q "SWIFT TASK CONTINUATION MISUSE: leaksItsContinuation() leaked its continuation" "$log" \
    || fail "the leaked continuation was not named"
  ! grep -A12 "✘ Test leaksItsContinuation() recorded an issue" "$log" | grep -q "waited 2.0 seconds" \
    || fail "the leaked continuation's run waited out its timeout"
  grep -q "✘ Test crashes() failed" "$log" || fail "crashes() did not fail"
  grep -Eq "StuckSuiteTests.swift:[0-9]+: Fatal error: the catalog is corrupt" "$log" \
    || fail "the fatal error's message and line did not reach the report"
  grep -Eq "crashes\(\) crashed: .* It crashed during controlled schedule 1 \(random, 5 schedules, seed 0\); to run the series to that schedule again: QUEUE_TESTING_SEED=0 swift test --filter '\^StuckSuiteTests[^']*crashes" "$log" \
    || fail "the crash did not name its schedule and how to run the series to it"
  grep -q "✘ Test resumesTwice() failed" "$log" || fail "resumesTwice() did not fail"
  grep -Eq "resumesTwice\(\) crashed: .* It crashed during controlled schedule 3 \(random, 5 schedules, seed 0\); to run the series to that schedule again: QUEUE_TESTING_SEED=0 swift test --filter '\^StuckSuiteTests[^']*resumesTwice" "$log" \
    || fail "the continuation resumed twice did not name schedule 3"
  grep -q "SWIFT TASK CONTINUATION MISUSE: resumesTwice() tried to resume its continuation more than once" "$log" \
    || fail "the runtime's message about the continuation did not reach the report"
  grep -Eq "resumesTwiceFromACallback\(\) crashed: .* It crashed during controlled schedule 1 \(random, 5 schedules, seed 0\); to run the series to that schedule again: QUEUE_TESTING_SEED=0 swift test --filter '\^StuckSuiteTests[^']*resumesTwiceFromACallback" "$log" \
    || fail "the second resume from a Dispatch callback was not found in schedule 1"
  grep -Eq "✘ Test run with $2 tests .* failed" "$log" || fail "no Swift Testing summary"
  [[ -z "$(ours StuckSuitePackageTests)" ]] || fail "a process of the suite is still running"
}

status=0
swift test --skip-build --skip stopsItself --skip waitsForAReplyAfterLeaving --xunit-output .build/stuck-suite.xml > .build/stuck-suite.log 2>&1 \
  || status=$?
test "$status" -ne 0 || { cat .build/stuck-suite.log; echo "stuck-suite: the run should fail" >&2; exit 1; }
check .build/stuck-suite.log 14
grep -q "✘ Test spinsForever() failed" .build/stuck-suite.log || { cat .build/stuck-suite.log; exit 1; }
grep -Eq "spinsForever\(\) is stuck: the job of task [0-9]+( \(the test.s body\))? at step [0-9]+ of controlled schedule 1 .* has run for [0-9]+ s" \
  .build/stuck-suite.log || { cat .build/stuck-suite.log; echo "stuck-suite: no report of the stuck job" >&2; exit 1; }
grep -Eq "spinsForever\(\) is stuck: .* without returning, with no known blocking call on its thread" .build/stuck-suite.log \
  || { cat .build/stuck-suite.log; echo "stuck-suite: the spinning job's report names a blocking call" >&2; exit 1; }
grep -q "✘ Test waitsOnASemaphore() failed" .build/stuck-suite.log || { cat .build/stuck-suite.log; exit 1; }
grep -Eq "waitsOnASemaphore\(\) is stuck: the job of task [0-9]+ at step [0-9]+ of controlled schedule [0-9]+ .* blocked in DispatchSemaphore.wait\(\)" \
  .build/stuck-suite.log || { cat .build/stuck-suite.log; echo "stuck-suite: the semaphore deadlock is not named" >&2; exit 1; }
grep -Eo "QUEUE_TESTING_SEED=0 swift test --filter '\^StuckSuiteTests[^']*'" .build/stuck-suite.log | grep -F 'spinsForever\(\)' > /dev/null \
  || { cat .build/stuck-suite.log; echo "stuck-suite: no line to run the series again" >&2; exit 1; }
grep -q "Test Case 'StuckSuiteXCTests.testLast' passed" .build/stuck-suite.log \
  || { cat .build/stuck-suite.log; echo "stuck-suite: XCTest did not go on" >&2; exit 1; }
grep -q "Test Case 'StuckSuiteXCTests.testWaitsForever' failed" .build/stuck-suite.log \
  || { cat .build/stuck-suite.log; echo "stuck-suite: XCTest's stuck test did not fail" >&2; exit 1; }
python3 - .build/stuck-suite-swift-testing.xml <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall(".//testcase")
names = {case.get("name") for case in cases}
failed = {case.get("name") for case in cases if case.find("failure") is not None}
assert {"first()", "fifth()", "waitsForever()", "finishes()", "spinsForever()", "crashes()"} <= names, names
assert failed == {"waitsForever()", "leaksItsContinuation()", "spinsForever()", "waitsOnASemaphore()", "crashes()", "resumesTwice()", "resumesTwiceFromACallback()"}, failed
print(f"stuck-suite: xUnit lists {len(cases)} Swift Testing cases, only the stuck, spinning and crashing ones failed")
PY

status=0
# Serially too (the spinning test, a minute long, is left to the parallel run).
swift test --skip-build --no-parallel --filter 'StuckSuiteTests\.[a-z]' --skip spinsForever --skip 'waitsOnASemaphore\(' --skip stopsItself --skip waitsForAReplyAfterLeaving \
  > .build/stuck-suite-serial.log 2>&1 || status=$?
test "$status" -ne 0 || { cat .build/stuck-suite-serial.log; echo "stuck-suite: the serial run should fail" >&2; exit 1; }
check .build/stuck-suite-serial.log 12

# A child that stops showing it is alive (here it stops itself with SIGSTOP, so its watchdog cannot
# run) is ended by the parent once its heartbeat has been still for the job limit (1 s here) plus
# 10 s, and the test fails saying so.
status=0
started=$SECONDS
QUEUE_TESTING_JOB_TIME_LIMIT=1 swift test --skip-build --filter 'stopsItself' > .build/stuck-suite-stopped.log 2>&1 \
  || status=$?
took=$((SECONDS - started))
test "$status" -ne 0 || { cat .build/stuck-suite-stopped.log; echo "stuck-suite: the stopped test should fail" >&2; exit 1; }
grep -Eq "stopsItself\(\) stopped responding: the child process running it showed no sign of life for 1[0-9] s" \
  .build/stuck-suite-stopped.log || { cat .build/stuck-suite-stopped.log; echo "stuck-suite: no report of the stopped child" >&2; exit 1; }
grep -Eq "✘ Test run with 1 test .* failed" .build/stuck-suite-stopped.log \
  || { cat .build/stuck-suite-stopped.log; echo "stuck-suite: no summary after the stopped child" >&2; exit 1; }
test "$took" -lt 40 || { echo "stuck-suite: the stopped child took ${took} s to be ended" >&2; exit 1; }
[[ -z "$(ours StuckSuitePackageTests)" ]] || { echo "stuck-suite: the stopped child is still there" >&2; exit 1; }
echo "stuck-suite: a stopped child was ended by its parent after ${took} s, with a report"

# A run that went on beside a job past its slice, and then waits for a reply that never comes once
# that job returned: the harness still drives the run, so it is a deadlock with its report (who
# waits, the dropped continuation), not a stuck job at the limit (3 s here, should it regress).
status=0
QUEUE_TESTING_JOB_TIME_LIMIT=3 swift test --skip-build --filter 'waitsForAReplyAfterLeaving' \
  > .build/stuck-suite-after-leaving.log 2>&1 || status=$?
test "$status" -ne 0 || { cat .build/stuck-suite-after-leaving.log; echo "stuck-suite: the test after leaving should fail" >&2; exit 1; }
grep -q "the run deadlocked" .build/stuck-suite-after-leaving.log \
  && grep -Eq "the run left one-job-at-a-time at step [0-9]+" .build/stuck-suite-after-leaving.log \
  && grep -q "the runtime reported a continuation dropped without being resumed" .build/stuck-suite-after-leaving.log \
  && ! grep -q "is stuck" .build/stuck-suite-after-leaving.log \
  || { cat .build/stuck-suite-after-leaving.log; echo "stuck-suite: no deadlock report of the run after leaving" >&2; exit 1; }
echo "stuck-suite: a run that deadlocks after it left one-job-at-a-time is reported as a deadlock"

# A parent killed with SIGKILL takes its child along: start the spinning test, kill the test
# process that started the child, and the child must stop running within five seconds (an ended
# child may linger as a zombie of whichever process adopted it: that one is not running).
running() {
  local state
  state="$(ps -o stat= -p "$1" 2> /dev/null | tr -d ' ')"
  [[ -n "$state" && "$state" != Z* ]]
}
swift test --skip-build --filter 'spinsForever' > .build/stuck-suite-orphan.log 2>&1 &
runner=$!
child=""
for _ in $(seq 1 100); do
  child="$(ours '--event-stream-output-path .*queue-testing-child' | head -1)"
  [[ -n "$child" ]] && break
  sleep 0.2
done
[[ -n "$child" ]] || { kill "$runner" 2> /dev/null; echo "stuck-suite: the child never started" >&2; exit 1; }
parent="$(ps -o ppid= -p "$child" | tr -d ' ')"
kill -KILL "$parent"
for _ in $(seq 1 25); do
  running "$child" || break
  sleep 0.2
done
if running "$child"; then
  kill -KILL "$child"
  echo "stuck-suite: the child outlived its killed parent" >&2
  exit 1
fi
wait "$runner" 2> /dev/null || true
echo "stuck-suite: a child whose parent was killed ended by itself"
echo "stuck-suite: the stuck test fails with its report; every other test reports, in parallel and serially"
