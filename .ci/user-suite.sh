#!/usr/bin/env bash
# A suite written as a new user writes one, with all of Swift Testing under the trait
# (.ci/user-suite): each test's shape is checked in what `swift test` prints and in its xUnit file,
# as plain Swift Testing would show it, adapted to a body that runs many times:
# - print and standard error reach the user: the first schedule's output of a passing test, the
#   failing schedule's of a failing one, under a line naming the schedule; never once per schedule;
# - each case of a parameterized test is its own series: only `value: 20` fails, the failure says
#   so, and its replay line (QUEUE_TESTING_ARGUMENTS) runs that case alone and fails again;
# - a failing #require is one issue; Test.cancel cancels; withKnownIssue stays known, once;
# - exit() in the body fails the test, naming the schedule; a time-limit overrun is one issue;
# - xUnit has one failure per failing test, with the replay line;
# - ControlledScheduling.run in a plain test returns its report without failing the test.
set -euo pipefail
cd "$(dirname "$0")/user-suite"
mkdir -p .build
swift build --build-tests > .build/user-suite-build.log 2>&1 || { cat .build/user-suite-build.log; exit 1; }
log=.build/user-suite.log
status=0
swift test --skip-build --xunit-output .build/user-suite.xml > "$log" 2>&1 || status=$?
fail() { cat "$log"; echo "user-suite: $1" >&2; exit 1; }
test "$status" -ne 0 || fail "the run should fail"

# Output: one schedule's, under a line that names it.
grep -q "printsWhatItDoes() printed, during controlled schedule 1 of 5 (random, 5 schedules, seed 1; the output of the others is not shown):" "$log" \
  || fail "a passing test's output was not shown"
test "$(grep -c "^printed by printsWhatItDoes$" "$log")" -eq 1 || fail "a passing test's print was not shown exactly once"
test "$(grep -c "^written to stderr by printsWhatItDoes$" "$log")" -eq 1 || fail "a passing test's stderr was not shown exactly once"
grep -A1 "printsThenFails() printed, during controlled schedule 1 (random, 5 schedules, seed 1), the one that failed:" "$log" \
  | grep -q "^printed by printsThenFails before its failure$" || fail "the failing schedule's output was not shown"
grep -q "✔ Test printsWhatItDoes() passed" "$log" || fail "printsWhatItDoes() did not pass"
grep -q "^printed on run 1$" "$log" && ! grep -q "^printed on run [2-5]$" "$log" \
  || fail "a passing test's output is not its first schedule's"

# Parameterized: the case with 20 is blamed, and the others are not.
grep -q "✘ Test onlyTwentyFails(value:) recorded an issue with 1 argument value → 20 at" "$log" \
  || fail "the failure of value 20 was not recorded on its case"
! grep -q "onlyTwentyFails(value:) recorded an issue with 1 argument value → [13]0" "$log" \
  || fail "a passing case was blamed"
grep -q "With the arguments value: 20." "$log" || fail "the failure does not name its arguments"
replay="$(grep -Eo "QUEUE_TESTING_SCHEDULE='[^']*' QUEUE_TESTING_ARGUMENTS='value: 20' swift test --filter '[^']*'" "$log" | head -1)"
[[ -n "$replay" ]] || fail "no replay line for the case"
replay_status=0
eval "$replay" > .build/user-suite-replay.log 2>&1 || replay_status=$?
test "$replay_status" -ne 0 || { cat .build/user-suite-replay.log; fail "the case's replay passed"; }
grep -q "recorded an issue with 1 argument value → 20" .build/user-suite-replay.log \
  || { cat .build/user-suite-replay.log; fail "the case's replay did not fail on value 20"; }
! grep -q "recorded an issue with 1 argument value → [13]0" .build/user-suite-replay.log \
  || { cat .build/user-suite-replay.log; fail "the case's replay ran another case"; }

# #require, Test.cancel, known issues, exit, time limits.
grep -q "✘ Test requiresAValue() failed after [0-9.]* seconds with 1 issue" "$log" || fail "#require was not one issue"
! grep -q "the body threw" "$log" || fail "a thrown ExpectationFailedError or SkipInfo was reported"
grep -q '➜ Test cancelsItself() was cancelled after [0-9.]* seconds: "the service under test is not configured here"' "$log" \
  || fail "Test.cancel did not cancel the test"
grep -q "✔ Test cancelsOneCase(value:) with 2 test cases passed" "$log" \
  || fail "a case that cancelled itself failed its test (plain Swift Testing passes it)"
grep -q "━ Test knowsItsIssue() passed after [0-9.]* seconds with 1 known issue" "$log" \
  || fail "the known issue was not kept known, once"
grep -q "exitsOnItsThirdSchedule() ended the process running it: the code under test called exit(0) during controlled schedule 3 (random, 5 schedules, seed 1)" "$log" \
  || fail "exit() in the body did not fail the test naming its schedule"
grep -q "✘ Test exitsOnItsThirdSchedule() failed" "$log" || fail "exitsOnItsThirdSchedule() did not fail"
grep -q "✘ Test outlivesItsTimeLimit() failed after [0-9.]* seconds with 1 issue" "$log" \
  || fail "the time-limit overrun was not one issue"
grep -q "✔ Test runsASeriesFromCode() passed" "$log" || fail "ControlledScheduling.run failed the calling test"
grep -q "✔ Test readsTheClockAcrossASleep() passed" "$log" || fail "the virtual clock did not move across a sleep"

# xUnit: one failure per failing test (each of these records one failure), the replay line kept.
python3 - .build/user-suite-swift-testing.xml <<'PY' || fail "the xUnit file is not what it should be"
import sys, xml.etree.ElementTree as tree
cases = {case.get("name"): case for case in tree.parse(sys.argv[1]).iter("testcase")}
for name in ["printsThenFails()", "requiresAValue()", "onlyTwentyFails(value:)", "exitsOnItsThirdSchedule()",
             "outlivesItsTimeLimit()"]:
    failures = cases[name].findall("failure")
    if len(failures) != 1:
        sys.exit(f"{name}: {len(failures)} failures in xUnit, expected 1")
for name in ["printsThenFails()", "requiresAValue()", "onlyTwentyFails(value:)"]:
    if "Replay it alone:" not in cases[name].find("failure").get("message"):
        sys.exit(f"{name}: the xUnit failure lost the replay line")
for name in ["printsWhatItDoes()", "knowsItsIssue()", "runsASeriesFromCode()"]:
    if cases[name].findall("failure"):
        sys.exit(f"{name}: a failure in xUnit for a test that passed")
PY

# QUEUE_TESTING_SUMMARY=on: a passing test says where its series stopped and why, as a warning that
# comes from the child process running it to the test's line in the parent (--verbose shows it).
summary=.build/user-suite-summary.log
QUEUE_TESTING_SUMMARY=on swift test --skip-build --verbose --filter 'printsWhatItDoes|readsTheClockAcrossASleep' \
  > "$summary" 2>&1 || { cat "$summary"; fail "the summary run failed"; }
grep -q "recorded a warning at UserSuiteTests.swift:19:" "$summary" && grep -q "↳ printsWhatItDoes() passed under random, 5 schedules, seed 1: 5 schedule(s)" "$summary" \
  || { cat "$summary"; fail "a passing test's summary did not reach the parent"; }
test "$(grep -c "passed under" "$summary")" -eq 2 || { cat "$summary"; fail "not one summary per passing test"; }
echo "user-suite: output, arguments, #require, Test.cancel, known issues, exit, time limits and xUnit behave as in plain Swift Testing; a passing test's summary reaches the parent"
