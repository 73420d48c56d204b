"""The mutation check: plausible one-line bugs across the four products, each of which the tests
must catch. (A change the code cannot show, such as `acquireIfIdle` without its `pending.isEmpty`
check, which the other transitions make redundant, is no mutant: it cannot be killed.) Run before a release (not in every CI run: each mutant rebuilds and runs tests):

    python3 .ci/mutants.py [NAME...]      (all of them by default)

Each mutant replaces one exact piece of a source file (which must occur once: a mutant that no
longer applies is an error, not a pass), then runs its command in a worktree of HEAD; the command
must fail. The worktree is set back after each mutant. Exit status 0 when every mutant was killed.
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".build-mutants"

# (name, file, original, mutant, command that must fail)
MUTANTS = [
    # AsyncQueue
    ("fifo-second-drainer", "Sources/AsyncQueue/Queues/Internal/SerialDrainStateMachine.swift",
     "    if turnHeld { return .none }\n    turnHeld = true\n    return .startDrainer",
     "    turnHeld = true\n    return .startDrainer",
     "swift test --filter AsyncQueueTests"),
    ("place-granted-twice", "Sources/AsyncQueue/Queues/Internal/SerialDrainStateMachine.swift",
     "    head += 1\n    if head == pending[0].count { retireFrontChunk() }\n    return .grant(next)",
     "    if head + 1 == pending[0].count { retireFrontChunk() }\n    return .grant(next)",
     "swift test --filter AsyncQueueTests"),
    ("fifo-wait-keeps-its-turn", "Sources/AsyncQueue/Queues/FIFOQueue.swift",
     "    reservation.item?.started()\n    defer { endTurn(reservation) }\n    return try await operation()\n",
     "    reservation.item?.started()\n    return try await operation()\n",
     "swift test --filter AsyncQueueTests"),
    ("single-flight-does-not-share", "Sources/AsyncQueue/SingleFlight/SingleFlightStateMachine.swift",
     "    case .inFlight(var flight):\n      flight.waiters.append(Waiter(id: waiter, continuation: continuation))\n"
     "      entries[key] = .inFlight(flight)\n      return .wait",
     "    case .inFlight:\n      nextID += 1\n      entries[key] = .inFlight(Flight(id: nextID, waiters: "
     "[Waiter(id: waiter, continuation: continuation)]))\n      return .startOperation(flight: nextID)",
     "swift test --filter AsyncQueueTests"),
    ("completion-queue-any-finish", "Sources/AsyncQueue/CompletionQueue/CompletionQueueStateMachine.swift",
     "guard running == id else { return .alreadyFinished }",
     "guard running != nil else { return .alreadyFinished }",
     "swift test --filter AsyncQueueTests"),
    ("ordered-property-nested-delivery", "Sources/AsyncQueue/OrderedProperty/OrderedPropertyStateMachine.swift",
     "    if isDelivering { return false }\n",
     "",
     "swift test --filter AsyncQueueTests"),
    # The engine
    ("random-strategy-always-first", "Sources/QueueTestingEngine/Strategies/ScheduleStrategy.swift",
     "runnableCount == 1 ? 0 : Int(generator.next() % UInt64(runnableCount))",
     "0",
     "swift test --filter QueueTestingEngineTests"),
    ("timers-latest-first", "Sources/QueueTestingEngine/Executor/TimerQueue.swift",
     "deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence",
     "deadline != other.deadline ? deadline > other.deadline : sequence < other.sequence",
     "swift test --filter QueueTestingEngineTests"),
    ("no-task-has-the-preference", "Sources/QueueTestingEngine/Executor/RunDriver+JobCapture.swift",
     "return kind == 0 && flags & (1 << 29) != 0 ? .taskWithPreference : .plain",
     "return .plain",
     "swift test --filter QueueTestingEngineTests"),
    ("oracle-ignores-fifo-finish", "Sources/QueueTestingEngine/Oracles/OrderingOracle.swift",
     "if guarantees.contains(.fifoFinish), let violation = orderViolation(.fifoFinish, queue, enqueued, finished) {",
     "if guarantees.contains(.fifoFinish), let violation = orderViolation(.fifoFinish, queue, enqueued, enqueued) {",
     "swift test --filter QueueTestingEngineTests"),
    ("completion-queues-judged-as-actors", "Sources/QueueTestingEngine/Oracles/OrderingOracle.swift",
     "let isFIFO = queueEvents[0].queueKind == .fifo || queueEvents[0].queueKind == .completion",
     "let isFIFO = queueEvents[0].queueKind == .fifo",
     "swift test --filter QueueTestingEngineTests"),
    ("deadlock-report-without-cycle", "Sources/QueueTestingEngine/Deadlock/DeadlockReport.swift",
     "    if !cycle.isEmpty {\n",
     "    if cycle.isEmpty {\n",
     "swift test --filter QueueTestingEngineTests"),
    # (Accepting a candidate with as many preemptions as the best is no longer a mutant: each pass
    # before the last returns at its first candidate with fewer, and those candidates have 0 or 1
    # preemptions, so no test body can show it.)
    ("reducer-keeps-another-failure", "Sources/QueueTestingEngine/Series/ScheduleReducer.swift",
     "guard candidate.same, candidate.preemptions.count < best.preemptions.count else { return false }",
     "guard candidate.preemptions.count < best.preemptions.count else { return false }",
     "swift test --filter 'QueueTestingEngineTests|ScheduleReduction'"),
    ("reducer-without-single-preemptions", "Sources/QueueTestingEngine/Series/ScheduleReducer.swift",
     "      while withinBudget(), point < maxRuns / 2 {",
     "      while withinBudget(), point < 0 {",
     "swift test --filter 'QueueTestingEngineTests|ScheduleReduction'"),
    ("arrivals-at-the-hop", "Sources/QueueTestingEngine/Executor/RunDriver.swift",
     "      if settings.policy == .everyHop {\n        let (identity, implementation) = unsafeBitCast(ActorArrivalExecutor.unowned",
     "      if settings.policy == .runtimeFastPath {\n        let (identity, implementation) = unsafeBitCast(ActorArrivalExecutor.unowned",
     "swift test --filter HopScheduling"),
    ("arrivals-deferred-off-serial-executors", "Sources/CQueueTestingRuntime/ActorHops.c",
     "  return current.identity == 0 && target != 0;\n",
     "  return current.identity != target;\n",
     "swift test --filter OrderedHops"),
    ("no-job-slice", "Sources/QueueTestingEngine/Executor/RunDriver+Drive.swift",
     "      if let slice = settings.jobSlice, slice > .zero {\n",
     "      if let slice = settings.jobSlice, slice > .zero, false {\n",
     "swift test --filter 'JobSliceTests|StuckScheduleTests'"),
    ("main-jobs-beside-an-overstaying-main-job", "Sources/QueueTestingEngine/Executor/RunDriver+Overstay.swift",
     "      statePointer.pointee.jobOverstays(isMain: overstaying.isMain)\n",
     "      statePointer.pointee.jobOverstays(isMain: false)\n",
     "swift test --filter JobSliceTests"),
    ("no-relief-driver", "Sources/QueueTestingEngine/Executor/RunDriver+Overstay.swift",
     "      if let reliefLoop { relieve(reliefLoop, leftAtStep: overstaying.step) }\n",
     "",
     "swift test --filter JobSliceTests"),
    ("deadlock-beside-an-overstaying-job", "Sources/QueueTestingEngine/Executor/RunState.swift",
     "        if jobsOverstaying > 0 { return .waitForJobsElsewhere }\n",
     "",
     "swift test --filter JobSliceTests"),
    ("virtual-time-runs-past-an-overstaying-job", "Sources/QueueTestingEngine/Executor/RunState.swift",
     "          jobsElsewhere: jobsOverstaying > 0)\n",
     "          jobsElsewhere: false)\n",
     "swift test --filter JobSliceTests"),
    ("a-loaded-machine-leaves-the-slice", "Sources/QueueTestingEngine/Executor/RunDriver+Overstay.swift",
     "      return cpuUsed >= slice\n",
     "      return true\n",
     "swift test --filter JobSliceTests"),
    ("clock-reads-stay-real", "Sources/CQueueTestingRuntime/VirtualTimeReads.c",
     "  if (result == 0 && shifting && followsVirtualTime(clock)) {\n",
     "  if (result == 0 && shifting && followsVirtualTime(clock) && 0) {\n",
     "swift test --filter VirtualTimeReads"),
    ("dispatch-deadlines-stay-virtual", "Sources/CQueueTestingRuntime/VirtualTimeReads.c",
     "  if (!shifting || moved == 0 || when == 0 || when == ~0ull) return when;\n",
     "  return when;\n",
     "swift test --filter VirtualTimeReads"),
    ("jumps-capped-by-the-timeout", "Sources/QueueTestingEngine/Executor/OutsideWorkState.swift",
     "      let left = .nanoseconds(Int64(clamping: delay)) - realSinceJump\n",
     "      let left = min(.nanoseconds(Int64(clamping: delay)), timeout) - realSinceJump\n",
     "swift test --filter 'aServersIdleTimeout|RunSubState'"),
    ("kept-state-not-checked-alone", "Sources/QueueTesting/ChildProcess/FreshProcessSeries.swift",
     "        let alone = spawn(replay)\n",
     "        let alone = outcome\n",
     "swift test --filter FreshProcessSeries"),
    ("schedule-alone-not-the-series-own", "Sources/QueueTestingEngine/Series/ScheduleSeries.swift",
     "      let indices = onlyIndex.map { ($0..<$0 + 1).clamped(to: 0..<count) } ?? 0..<count\n",
     "      let indices = onlyIndex.map { _ in 0..<1 } ?? 0..<count\n",
     "swift test --filter 'SeriesRunner'"),
    ("queue-tasks-keep-their-shape", "Sources/QueueTestingEngine/Executor/HarnessQueueObserver.swift",
     "RunDriver.shared.isDriverThread && !RunDriver.queueTasksKeepTheirShape.load(ordering: .relaxed)",
     "RunDriver.shared.isDriverThread && RunDriver.queueTasksKeepTheirShape.load(ordering: .relaxed)",
     "swift test --filter HopScheduling"),
    ("woken-threads-not-counted", "Sources/CQueueTestingRuntime/DispatchTracking.c",
     "  if (tracking && !insideDispatch) __atomic_add_fetch(&threadsWoken, 1, __ATOMIC_RELAXED);\n",
     "",
     "swift test --filter VirtualTimeAndRealThreads"),
    ("pipe-writes-not-counted", "Sources/CQueueTestingRuntime/DispatchTracking.c",
     "(S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode))",
     "S_ISSOCK(info.st_mode)",
     "swift test --filter VirtualTimeAndRealThreads"),
    ("actor-hops-not-noted", "Sources/QueueTestingEngine/Executor/RunDriver+Drive.swift",
     "          if qt_actor_hop_count() > 0 { takeActorHops(step: step) }\n",
     "",
     "swift test --filter ScheduleReduction"),
    ("failure-identity-ignores-places", "Sources/QueueTestingEngine/Series/ScheduleProblem.swift",
     '    case .failuresRecorded: FailureIdentity(["failures"] + locations)',
     '    case .failuresRecorded: FailureIdentity(["failures"])',
     "swift test --filter QueueTestingEngineTests"),
    ("replay-reduced", "Sources/QueueTestingEngine/Series/SeriesRunner.swift",
     "    if series.isReplay { return failure }\n",
     "",
     "swift test --filter QueueTestingEngineTests"),
    # QueueTesting
    ("require-reported-as-a-throw", "Sources/QueueTesting/Scheduling/ControlledScheduling+Series.swift",
     "          } catch is ExpectationFailedError {\n"
     "            // A failing `#require`: its issue is recorded already, and is the schedule's failure.\n",
     "          } catch let error as ExpectationFailedError {\n            thrown.withLock { $0 = \"\\(error)\" }\n",
     "swift test --filter ControlledSchedulingTraitTests"),
    ("known-issues-dropped", "Sources/QueueTesting/Traits/ControlledSchedulingTrait.swift",
     "          await record(issue)\n        }\n        guard let failure = held.report.failure",
     "        }\n        guard let failure = held.report.failure",
     "swift test --filter ControlledSchedulingTraitTests"),
    ("case-arguments-unnamed", "Sources/QueueTesting/Traits/TestCaseArguments.swift",
     "      guard let testCase, testCase.isParameterized else { return nil }",
     "      guard let testCase, !testCase.isParameterized else { return nil }",
     "swift test --filter ControlledSchedulingTraitTests"),
    ("child-known-issues-fail", "Sources/QueueTesting/ChildProcess/ChildProcessIsolation.swift",
     "      let isKnown = issue[\"isKnown\"] as? Bool == true",
     "      let isKnown = false",
     "swift test --filter ChildProcessIsolationTests"),
    ("exit-during-a-test-passes", "Sources/QueueTesting/ChildProcess/WorkerBatch.swift",
     "            outcome.exitedDuringTest = true",
     "            outcome.exitedDuringTest = false",
     "swift test --filter ChildWorkersTests"),
    ("trait-runs-in-place", "Sources/QueueTesting/ChildProcess/ChildProcessIsolation.swift",
     "      guard !runsInPlace, environment[childVariable] == nil, environment[isolationVariable] != \"none\" else {",
     "      guard false else {",
     "swift test --filter ChildProcessIsolationTests"),
    ("watchdog-never-fires", "Sources/QueueTesting/ChildProcess/JobWatchdog.swift",
     "          guard running >= limitSeconds else { continue }",
     "          guard running >= limitSeconds * 1_000 else { continue }",
     "swift test --filter ChildProcessIsolationTests"),
    ("cancelled-caller-runs-on", "Sources/QueueTestingEngine/Series/SeriesRunner.swift",
     "        if Task.isCancelled {",
     "        if false, Task.isCancelled {",
     "swift test --filter ControlledSchedulingTraitTests"),
    ("budget-ignored", "Sources/QueueTestingEngine/Series/SeriesRunner.swift",
     "    case .random, .pct, .portfolio: spending = budget.map(ScheduleBudgetSpending.init)",
     "    case .random, .pct, .portfolio: spending = nil",
     "swift test --filter ScheduleBudgetTests"),
    ("fresh-processes-ignore-the-budget", "Sources/QueueTesting/ChildProcess/FreshProcessSeries.swift",
     "        guard var budgetSpending = spending, let spend = outcome.runSpend else { continue }",
     "        guard false, var budgetSpending = spending, let spend = outcome.runSpend else { continue }",
     "swift test --filter FreshProcessSeriesTests"),
    ("every-run-seen-as-without-choice", "Sources/QueueTestingEngine/Series/ScheduleBudget.swift",
     "    if !hadChoice && !dependsOnOutsideTiming && coverage.runs == 1 { return .noSchedulingChoice }",
     "    if coverage.runs == 1 { return .noSchedulingChoice }",
     "swift test --filter ScheduleBudgetTests"),
    ("budget-stops-before-its-minimum", "Sources/QueueTestingEngine/Series/ScheduleBudget.swift",
     "    guard coverage.runs >= budget.minimumSchedules else { return nil }\n",
     "",
     "swift test --filter ScheduleBudgetTests"),
    ("stall-ended-by-any-two-yielders", "Sources/QueueTestingEngine/Strategies/PCTStrategy.swift",
     "    if yieldersDuringStall.count < 2, tasksMadeDuringStall.contains(task), !yieldersDuringStall.contains(task) {",
     "    if yieldersDuringStall.count < 2, !yieldersDuringStall.contains(task) {",
     "swift test --filter DefaultSeriesPowerTests"),
    ("portfolio-of-depths-one-to-three", "Sources/QueueTestingEngine/Series/ScheduleSeries.swift",
     "    case 0, 2: .random\n    case 1: .pct(depth: 3)\n    default: .pct(depth: 2)",
     "    case 0: .random\n    case let phase: .pct(depth: phase)",
     "swift test --filter DefaultSeriesPowerTests"),
    ("cancelled-operations-take-effect", "Sources/QueueTestingEngine/Linearizability/SequentialModel.swift",
     "if case .threw(let error) = outcome, error == Self.cancellation { return .withoutEffect }",
     "if case .threw(let error) = outcome, error == Self.cancellation { return .withEffect }",
     "swift test --filter LinearizabilityCheckerTests"),
    ("minimizer-drops-no-pairs", "Sources/QueueTestingEngine/Linearizability/ScenarioMinimizer.swift",
     "      if !changed {\n        let places = current.places",
     "      if false, !changed {\n        let places = current.places",
     "swift test --filter ScenarioMinimizerTests"),
    ("scenario-parts-not-waited-for", "Sources/QueueTesting/Linearizability/Quiescence.swift",
     "      await latch.wait()\n",
     "",
     "swift test --filter LinearizabilityZooTests"),
    ("single-flight-forget-leaves-the-flight", "Sources/AsyncQueue/SingleFlight/SingleFlightStateMachine.swift",
     "      detached[flight.id] = (key, flight)\n      entries[key] = nil\n",
     "      _ = flight\n",
     "swift test --filter DogfoodTests"),
    ("linearizability-memo-forgets-the-state", "Sources/QueueTestingEngine/Linearizability/LinearizabilityChecker.swift",
     "if explored.insert(Explored(placed: placed, state: after)).inserted {",
     "if explored.insert(Explored(placed: placed, state: initial)).inserted {",
     "swift test --filter LinearizabilityCheckerTests"),
    ("linearizability-pending-operations-unchecked", "Sources/QueueTestingEngine/Linearizability/LinearizabilityChecker.swift",
     "        if next[head] == tail, pendingOperationsWait(in: state) {",
     "        if next[head] == tail {",
     "swift test --filter LinearizabilityCheckerTests"),
    ("linearizability-real-time-ignored", "Sources/QueueTestingEngine/Linearizability/LinearizabilityChecker.swift",
     "      events.sort { ($0.time, $0.isInvocation ? 1 : 0, $0.node) < ($1.time, $1.isInvocation ? 1 : 0, $1.node) }",
     "      events.sort { ($0.isInvocation ? 0 : 1, $0.time, $0.node) < ($1.isInvocation ? 0 : 1, $1.time, $1.node) }",
     "swift test --filter LinearizabilityCheckerTests"),
    ("quiescent-periods-merged", "Sources/QueueTestingEngine/Linearizability/LinearizabilityChecker.swift",
     "        if records[index].invocation > end || periods.isEmpty { periods.append([]) }",
     "        if periods.isEmpty { periods.append([]) }",
     "swift test --filter LinearizabilityCheckerTests"),
    # queue-fuzz
    ("parser-skips-queues-of-items", "Sources/QueueScenarios/Scenario/ScenarioParser.swift",
     "        if !queueNames.contains(queue) && !mentionedByMistakes.contains(queue) {",
     "        if ownerName == nil, !queueNames.contains(queue) && !mentionedByMistakes.contains(queue) {",
     "swift test --filter QueueScenariosTests"),
    ("parser-cascades", "Sources/QueueScenarios/Scenario/ScenarioParser.swift",
     "    for item in scenario.items where enqueuedAt[item.name] == nil && !mentionedByMistakes.contains(item.name) {",
     "    for item in scenario.items where enqueuedAt[item.name] == nil {",
     "swift test --filter QueueScenariosTests"),
    ("no-swap-in-edit-distance", "Sources/QueueScenarios/Scenario/NearestWord.swift",
     "        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {",
     "        if false, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {",
     "swift test --filter QueueScenariosTests"),
    ("folder-judged-by-permissions", "Sources/QueueFuzzCore/Reports/OutputLocation.swift",
     "          guard mkdir(probe, 0o755) == 0 else {",
     "          guard true else {",
     "swift test --filter CommandRobustness"),
    ("real-queues-broken-fifo", "Sources/AsyncQueue/Queues/Internal/SerialDrainStateMachine.swift",
     "    if turnHeld { return .none }\n    turnHeld = true\n    return .startDrainer",
     "    turnHeld = true\n    return .startDrainer",
     "swift run queue-fuzz run Scenarios/"),
]


def git(*arguments, cwd=WORK):
    return subprocess.run(["git", *arguments], cwd=cwd, check=True, capture_output=True, text=True)


def run_bounded(command, seconds):
    """Runs `command` in a process group of its own; past `seconds`, ends the whole group (a test
    binary that `swift test` started included, which `timeout` alone would leave running) and
    reports status 124, as `timeout` does."""
    process = subprocess.Popen(command, cwd=WORK, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=seconds)
        return subprocess.CompletedProcess(command, process.returncode, out, err)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return subprocess.CompletedProcess(command, 124, out, err)


def main(names):
    chosen = [m for m in MUTANTS if not names or m[0] in names]
    unknown = set(names) - {m[0] for m in MUTANTS}
    if unknown:
        sys.exit(f"mutants: no mutant named {sorted(unknown)}")
    if not WORK.exists():
        git("worktree", "add", "--detach", str(WORK), "HEAD", cwd=ROOT)
    else:
        git("checkout", "--detach", subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                                                    text=True, check=True).stdout.strip())
    git("checkout", "--", ".")
    print("mutants: building the unmutated tree first", flush=True)
    subprocess.run("swift build --build-tests > /dev/null 2>&1", cwd=WORK, shell=True, check=True)
    survivors = []
    for name, file, original, mutant, command in chosen:
        path = WORK / file
        text = path.read_text()
        if text.count(original) != 1:
            survivors.append(name)
            print(f"mutants: {name}: the piece to mutate occurs {text.count(original)} times in {file}", flush=True)
            continue
        path.write_text(text.replace(original, mutant))
        started = time.monotonic()
        try:
            # A mutant that does not compile proves nothing: it must build, then fail its command.
            build = subprocess.run("swift build --build-tests", cwd=WORK, shell=True, capture_output=True, text=True)
            result = None
            if build.returncode == 0:
                result = run_bounded(command, seconds=900)
        finally:
            git("checkout", "--", file)
        seconds = time.monotonic() - started
        if result is None:
            survivors.append(name)
            errors = [line for line in build.stdout.splitlines() + build.stderr.splitlines() if "error:" in line]
            print(f"mutants: {name} does not compile: {errors[:2]}", flush=True)
        elif result.returncode == 0:
            survivors.append(name)
            print(f"mutants: {name} SURVIVED ({command}, {seconds:.0f} s)", flush=True)
        else:
            print(f"mutants: {name} killed by {command} ({seconds:.0f} s)", flush=True)
    if survivors:
        sys.exit(f"mutants: {len(survivors)} of {len(chosen)} survived or did not apply: {', '.join(survivors)}")
    print(f"mutants: all {len(chosen)} killed")


if __name__ == "__main__":
    main(sys.argv[1:])
