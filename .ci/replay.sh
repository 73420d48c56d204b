# Sourced by the scripts that check a failing test's replay line from a user's package.

# The replay line `log` shows for `test`: its schedule (matching `schedule`, a grep -E pattern)
# and `swift test --filter '^<full test ID>$'`.
replay_line() { # log, test, schedule pattern
  grep -Eo "QUEUE_TESTING_SCHEDULE='$3' swift test --filter '\^[^']*'" "$1" | grep -F "$2\(\)" | head -1
}

# Runs a replay line in `dir`: it must fail again, on its one schedule, and run that one test
# alone (the filter is the test's full ID, anchored). Otherwise prints its output and why, and
# returns 1.
replay_fails_alone() { # dir, replay line, output file
  local dir=$1 replay=$2 out=$3 status=0 problem=""
  (cd "$dir" && eval "$replay") > "$out" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    problem="the replay passed"
  elif ! grep -Eq "(Controlled schedule 1 failed|During controlled schedule 1) \(replay of " "$out"; then
    problem="the replay did not fail on its schedule"
  elif ! grep -Eq "✘ Test run with 1 test( in [0-9]+ suites?)? failed" "$out"; then
    problem="the replay ran more than that one test"
  fi
  [ -z "$problem" ] && return 0
  cat "$out"
  echo "$problem: $replay" >&2
  return 1
}
