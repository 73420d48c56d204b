#!/usr/bin/env bash
# A controlled test that can never finish must not take the suite down: in .ci/stuck-suite, the
# stuck Swift Testing test fails with its deadlock report and replay line, every other test
# reports (in parallel and with --no-parallel), Swift Testing prints its summary, the xUnit file
# is complete, XCTest goes on after its own stuck test, and the run exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/stuck-suite"
mkdir -p .build
swift build --build-tests > .build/stuck-suite-build.log 2>&1 || { cat .build/stuck-suite-build.log; exit 1; }

check() {
  local log=$1
  fail() { cat "$log"; echo "stuck-suite: $1" >&2; exit 1; }
  for test in first second third fourth fifth finishes; do
    grep -q "✔ Test $test() passed" "$log" || fail "$test() did not report a pass"
  done
  grep -q "✘ Test waitsForever() failed" "$log" || fail "waitsForever() did not fail"
  grep -q "waits at continuation 'reply', which nothing resumes" "$log" || fail "no deadlock report"
  grep -q "QUEUE_TESTING_SCHEDULE='s1:' swift test --filter 'waitsForever'" "$log" || fail "no replay line"
  grep -q "waitsForever() did not finish" "$log" || fail "the report does not say which test did not finish"
  grep -Eq "✘ Test run with 7 tests .* failed" "$log" || fail "no Swift Testing summary"
}

status=0
swift test --skip-build --xunit-output .build/stuck-suite.xml > .build/stuck-suite.log 2>&1 || status=$?
test "$status" -ne 0 || { cat .build/stuck-suite.log; echo "stuck-suite: the run should fail" >&2; exit 1; }
check .build/stuck-suite.log
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
assert {"first()", "fifth()", "waitsForever()", "finishes()"} <= names, names
assert failed == {"waitsForever()"}, failed
print(f"stuck-suite: xUnit lists {len(cases)} Swift Testing cases, only waitsForever() failed")
PY

status=0
swift test --skip-build --no-parallel --filter 'StuckSuiteTests\.[a-z]' > .build/stuck-suite-serial.log 2>&1 || status=$?
test "$status" -ne 0 || { cat .build/stuck-suite-serial.log; echo "stuck-suite: the serial run should fail" >&2; exit 1; }
check .build/stuck-suite-serial.log
echo "stuck-suite: the stuck test fails with its report; every other test reports, in parallel and serially"
