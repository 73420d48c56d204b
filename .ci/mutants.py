"""The mutation check: plausible one-line bugs across the four products, each of which the tests
must catch. (A change the code cannot show, such as `acquireIfIdle` without its `pending.isEmpty`
check, which the other transitions make redundant, is no mutant: it cannot be killed.) Run before a release (not in every CI run: each mutant rebuilds and runs tests):

    python3 .ci/mutants.py [NAME...]      (all of them by default)
    python3 .ci/mutants.py --check        (only that each still applies; the lint stage runs it)

Each mutant is named for the behaviour it breaks, and is anchored on a symbol rather than a file: it
replaces one exact piece of the block (braces) that follows the anchor, a declaration that occurs
once in Sources/ (a function, a type, a C definition). Moving code between files leaves a mutant
working; a piece that no longer occurs once in its anchor's block is an error, not a pass. The
parts of the runtime a test turns off (`RuntimeModel`) are mutated through their switch: every run
made as if the model left that part out. The command runs in a worktree of HEAD and must fail;
the worktree is set back after each mutant. Exit status 0 when every mutant was killed.
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".build-mutants"

# (name, anchor, original, mutant, command that must fail)
MUTANTS = [
    # AsyncQueue
    ("fifo-second-drainer", "mutating func enqueue(_ entry:",
     "    if turnHeld { return .none }\n    turnHeld = true\n    return .startDrainer",
     "    turnHeld = true\n    return .startDrainer",
     "swift test --filter AsyncQueueTests"),
    ("place-granted-twice", "mutating func passTurn(",
     "    head += 1\n    if head == pending[0].count { retireFrontChunk() }\n    return .grant(next)",
     "    if head + 1 == pending[0].count { retireFrontChunk() }\n    return .grant(next)",
     "swift test --filter AsyncQueueTests"),
    ("fifo-wait-keeps-its-turn", "extension FIFOQueue.Lane",
     "    reservation.item?.started()\n    defer { endTurn(reservation) }\n    return try await operation()\n",
     "    reservation.item?.started()\n    return try await operation()\n",
     "swift test --filter AsyncQueueTests"),
    ("single-flight-does-not-share", "mutating func request(",
     "    case .inFlight(var flight):\n      flight.waiters.append(Waiter(id: waiter, continuation: continuation))\n"
     "      entries[key] = .inFlight(flight)\n      return .wait",
     "    case .inFlight:\n      nextID += 1\n      entries[key] = .inFlight(Flight(id: nextID, waiters: "
     "[Waiter(id: waiter, continuation: continuation)]))\n      return .startOperation(flight: nextID)",
     "swift test --filter AsyncQueueTests"),
    ("completion-queue-any-finish", "mutating func finish(_ id: UInt64) -> FinishOutcome",
     "guard running == id else { return .alreadyFinished }",
     "guard running != nil else { return .alreadyFinished }",
     "swift test --filter AsyncQueueTests"),
    ("ordered-property-nested-delivery", "mutating func write(",
     "    if isDelivering { return false }\n",
     "",
     "swift test --filter AsyncQueueTests"),
    ("concurrent-barrier-beside-items", "private func allowsStart(barrier: Bool) -> Bool",
     "(barrier ? running == 0 : running < width)",
     "(barrier ? running < width : running < width)",
     "swift test --filter ConcurrentQueueStateMachineTests"),
    ("concurrent-width-plus-one", "private func allowsStart(barrier: Bool) -> Bool",
     "(barrier ? running == 0 : running < width)",
     "(barrier ? running == 0 : running <= width)",
     "swift test --filter ConcurrentQueueStateMachineTests"),
    ("concurrent-parked-holder-never-resumed", "private mutating func admit(into starts: inout Starts",
     "        if let holder = parkedHolders.grantNext() { starts.other = .holder(holder) }\n",
     "        _ = parkedHolders.grantNext()\n",
     "swift test --filter ConcurrentQueueStateMachineTests"),
    ("semaphore-signal-passes-a-coming-waiter", "mutating func signal() -> SignalAction",
     "        waits[id] = .grantedBeforeComing\n        return .grantedBeforeComing(id: id)\n",
     "        continue\n",
     "swift test --filter AsyncSemaphoreStateMachineTests"),
    ("semaphore-cancel-doubles-a-permit", "mutating func cancel(_ id: UInt64) -> Waiter?",
     "    case .waiting(let waiter):\n      waits[id] = nil\n      return waiter\n",
     "    case .waiting(let waiter):\n      waits[id] = nil\n      freePermits += 1\n      return waiter\n",
     "swift test --filter AsyncSemaphore"),
    ("semaphore-granted-waiter-loses-its-permit", "mutating func enqueue(_ waiter: Waiter, id: UInt64)",
     "    case .grantedBeforeComing:\n      return .granted\n",
     "    case .grantedBeforeComing:\n      return .cancelled\n",
     "swift test --filter AsyncSemaphoreStateMachineTests"),
    # The engine
    ("random-strategy-always-first", "public struct SeededRandomStrategy:",
     "runnableCount == 1 ? 0 : Int(generator.next() % UInt64(runnableCount))",
     "0",
     "swift test --filter QueueTestingEngineTests"),
    ("run-length-learned-from-livelocks", "package mutating func learn(from result: RunResult)",
     "    guard result.fairFromChoice == nil else { return }\n",
     "",
     "swift test --filter SeriesRunnerTests"),
    ("timers-latest-first", "func precedes(_ other: Timer) -> Bool",
     "deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence",
     "deadline != other.deadline ? deadline > other.deadline : sequence < other.sequence",
     "swift test --filter QueueTestingEngineTests"),
    ("no-task-has-the-preference", "static func note(",
     "return kind == 0 && flags & (1 << 29) != 0 ? .taskWithPreference : .plain",
     "return .plain",
     "swift test --filter QueueTestingEngineTests"),
    ("oracle-ignores-fifo-finish", "package enum OrderingOracle",
     "if guarantees.contains(.fifoFinish), let violation = orderViolation(.fifoFinish, queue, enqueued, finished) {",
     "if guarantees.contains(.fifoFinish), let violation = orderViolation(.fifoFinish, queue, enqueued, enqueued) {",
     "swift test --filter QueueTestingEngineTests"),
    ("completion-queues-judged-as-actors", "package enum OrderingOracle",
     "let isFIFO = queueEvents[0].queueKind == .fifo || queueEvents[0].queueKind == .completion",
     "let isFIFO = queueEvents[0].queueKind == .fifo",
     "swift test --filter QueueTestingEngineTests"),
    ("deadlock-report-without-cycle", "public struct DeadlockReport:",
     "    if !cycle.isEmpty {\n",
     "    if cycle.isEmpty {\n",
     "swift test --filter QueueTestingEngineTests"),
    # (Accepting a candidate with as many preemptions as the best is no longer a mutant: each pass
    # before the last returns at its first candidate with fewer, and those candidates have 0 or 1
    # preemptions, so no test body can show it.)
    ("reducer-keeps-another-failure", "func keepIfFewer(",
     "guard candidate.same, candidate.preemptions.count < best.preemptions.count else { return false }",
     "guard candidate.preemptions.count < best.preemptions.count else { return false }",
     "swift test --filter 'QueueTestingEngineTests|ScheduleReduction'"),
    ("reducer-without-single-preemptions", "public func reduce(",
     "      while withinBudget(), point < maxRuns / 2 {",
     "      while withinBudget(), point < 0 {",
     "swift test --filter 'QueueTestingEngineTests|ScheduleReduction'"),
    ("arrivals-deferred-off-serial-executors", "static int leavesGenericExecutor(",
     "  return current.identity == 0 && target != 0;\n",
     "  return current.identity != target;\n",
     "swift test --filter OrderedHops"),
    ("no-job-slice", "func drive<",
     "      if let slice = settings.jobSlice, slice > .zero {\n",
     "      if let slice = settings.jobSlice, slice > .zero, false {\n",
     "swift test --filter 'JobSliceTests|StuckScheduleTests'"),
    ("main-jobs-beside-an-overstaying-main-job", "func leaveOneJobAtATime(ifStillRunning job:",
     "      statePointer.pointee.jobOverstays(isMain: overstaying.isMain)\n",
     "      statePointer.pointee.jobOverstays(isMain: false)\n",
     "swift test --filter JobSliceTests"),
    ("no-relief-driver", "func leaveOneJobAtATime(ifStillRunning job:",
     "      if run.settings.jobSlice != nil { relieve(run, leftAtStep: overstaying.step) }\n",
     "",
     "swift test --filter JobSliceTests"),
    ("deadlock-beside-an-overstaying-job", "mutating func nextStep<",
     "        if jobsOverstaying > 0 { return .waitForJobsElsewhere }\n",
     "",
     "swift test --filter JobSliceTests"),
    ("virtual-time-runs-past-an-overstaying-job", "mutating func nextStep<",
     "          jobsElsewhere: jobsOverstaying > 0)\n",
     "          jobsElsewhere: false)\n",
     "swift test --filter JobSliceTests"),
    ("a-loaded-machine-leaves-the-slice", "static func overstays(",
     "      return cpuUsed >= slice\n",
     "      return true\n",
     "swift test --filter JobSliceTests"),
    ("clock-reads-stay-real", "__attribute__((weak)) int clock_gettime(",
     "  if (result == 0 && shifting && followsVirtualTime(clock)) {\n",
     "  if (result == 0 && shifting && followsVirtualTime(clock) && 0) {\n",
     "swift test --filter VirtualTimeReads"),
    ("dispatch-deadlines-stay-virtual", "// A `dispatch_time_t` is an uptime in nanoseconds",
     "  if (!shifting || moved == 0 || when == 0 || when == ~0ull) return when;\n",
     "  return when;\n",
     "swift test --filter VirtualTimeReads"),
    ("jumps-capped-by-the-timeout", "func waitBeforeJump(",
     "      let left = .nanoseconds(Int64(clamping: delay)) - realSinceJump\n",
     "      let left = min(.nanoseconds(Int64(clamping: delay)), timeout) - realSinceJump\n",
     "swift test --filter 'aServersIdleTimeout|RunSubState'"),
    ("kept-state-not-checked-alone", "enum FreshProcessSeries",
     "        let alone = spawn(replay)\n",
     "        let alone = outcome\n",
     "swift test --filter FreshProcessSeries"),
    ("schedule-alone-not-the-series-own", "struct SeededSeries: SeriesFamily {",
     "    let indices = series.onlyIndex.map { ($0..<$0 + 1).clamped(to: 0..<series.count) } ?? 0..<series.count\n",
     "    let indices = series.onlyIndex.map { _ in 0..<1 } ?? 0..<series.count\n",
     "swift test --filter 'SeriesRunner'"),
    # Through the switches of `RuntimeModel`: every run made as if the model left one part out.
    ("arrivals-at-the-hop", "package struct RuntimeModel",
     "package var hops = HopPolicy.everyHop", "package var hops = HopPolicy.arrivalsAtTheHop",
     "swift test --filter HopScheduling"),
    ("queue-tasks-keep-their-shape", "package struct RuntimeModel",
     "package var queueTasksPreferHarness = true", "package var queueTasksPreferHarness = false",
     "swift test --filter HopScheduling"),
    ("new-tasks-without-the-preference", "package struct RuntimeModel",
     "package var newTasksPreferHarness = true", "package var newTasksPreferHarness = false",
     "swift test --filter HopScheduling"),
    ("outside-work-not-counted", "package struct RuntimeModel",
     "package var countsOutsideWork = true", "package var countsOutsideWork = false",
     "swift test --filter VirtualTimeAndRealThreads"),
    ("other-tools-global-hook-ignored", "package struct RuntimeModel",
     "package var honoursOtherToolsGlobalHook = true", "package var honoursOtherToolsGlobalHook = false",
     "swift test --filter ForeignHook"),
    ("leaked-continuations-unheard", "package struct RuntimeModel",
     "package var watchesLeakedContinuations = true", "package var watchesLeakedContinuations = false",
     "swift test --filter LeakedContinuation"),
    ("woken-threads-not-counted", "static inline void qt_note_wake(",
     "  if (qt_counting && !qt_inside_dispatch) __atomic_add_fetch(&qt_threads_woken, 1, __ATOMIC_RELAXED);\n",
     "",
     "swift test --filter VirtualTimeAndRealThreads"),
    ("pipe-writes-not-counted", "static inline void noteWriteWake(",
     "(S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode))",
     "S_ISSOCK(info.st_mode)",
     "swift test --filter VirtualTimeAndRealThreads"),
    ("dispatch-signals-without-a-waiter-not-counted", "__attribute__((weak)) long dispatch_semaphore_signal(",
     "  qt_note_wake();\n",
     "",
     "swift test --filter 'aDispatchSignalBeforeItsWaiter|aThreadMadeBeforeTheRun'"),
    ("dispatch-group-leave-not-counted", "__attribute__((weak)) void dispatch_group_leave(",
     "  qt_note_wake();\n",
     "",
     "swift test --filter aDispatchSignalBeforeItsWaiter"),
    ("dispatch-resume-not-counted", "__attribute__((weak)) void dispatch_resume(",
     "  qt_note_wake();\n",
     "",
     "swift test --filter workADispatchCallSetsGoing"),
    ("dispatch-activate-not-counted", "__attribute__((weak)) void dispatch_activate(",
     "  qt_note_wake();\n",
     "",
     "swift test --filter workADispatchCallSetsGoing"),
    ("dispatch-source-data-not-counted", "__attribute__((weak)) void dispatch_source_merge_data(",
     "  qt_note_wake();\n",
     "",
     "swift test --filter workADispatchCallSetsGoing"),
    ("dispatch-timer-start-stays-virtual", "__attribute__((weak)) void dispatch_source_set_timer(",
     "  start = qt_dispatch_time_to_real(start);\n",
     "",
     "swift test --filter workADispatchCallSetsGoing"),
    ("datagram-sends-not-counted", "__attribute__((weak)) ssize_t sendmsg(",
     "  noteWriteWake(descriptor);\n",
     "",
     "swift test --filter aDatagramSent"),
    ("actor-hops-not-noted", "private func runJob(",
     "      if ActorHopProbe.hasHops { driver.takeActorHops(step: step) }\n",
     "",
     "swift test --filter ScheduleReduction"),
    ("failure-identity-ignores-places", "extension ScheduleProblem:",
     '    case .failuresRecorded: FailureIdentity(["failures"] + locations)',
     '    case .failuresRecorded: FailureIdentity(["failures"])',
     "swift test --filter QueueTestingEngineTests"),
    ("replay-reduced", "private func reduced<",
     "    if series.isReplay { return failure }\n",
     "",
     "swift test --filter QueueTestingEngineTests"),
    # QueueTesting
    ("require-reported-as-a-throw", "private func runSchedule(",
     "        } catch is ExpectationFailedError {\n"
     "          // A failing `#require`: its issue is recorded already, and is the schedule's failure.\n",
     "        } catch let error as ExpectationFailedError {\n          recorder.withLock { $0.thrown = \"\\(error)\" }\n",
     "swift test --filter ControlledSchedulingTraitTests"),
    ("known-issues-dropped", "public struct ControlledSchedulingTrait:",
     "          await record(issue)\n        }\n        guard let failure = held.report.failure",
     "        }\n        guard let failure = held.report.failure",
     "swift test --filter ControlledSchedulingTraitTests"),
    ("case-arguments-unnamed", "private static func parts(",
     "      guard let testCase, testCase.isParameterized else { return nil }",
     "      guard let testCase, !testCase.isParameterized else { return nil }",
     "swift test --filter ControlledSchedulingTraitTests"),
    ("child-known-issues-fail", "static func issue(",
     "      let isKnown = issue[\"isKnown\"] as? Bool == true",
     "      let isKnown = false",
     "swift test --filter ChildProcessIsolationTests"),
    ("exit-during-a-test-passes", "func split(",
     "            outcome.exitedDuringTest = true",
     "            outcome.exitedDuringTest = false",
     "swift test --filter ChildWorkersTests"),
    ("trait-runs-in-place", "static func applies(",
     "      guard !runsInPlace, environment[childVariable] == nil, environment[isolationVariable] != \"none\" else {",
     "      guard false else {",
     "swift test --filter ChildProcessIsolationTests"),
    ("watchdog-never-fires", "enum JobWatchdog {",
     "          guard running >= limitSeconds else { continue }",
     "          guard running >= limitSeconds * 1_000 else { continue }",
     "swift test --filter ChildProcessIsolationTests"),
    ("cancelled-caller-runs-on", "private func goesOn<",
     "    if Task.isCancelled {",
     "    if false, Task.isCancelled {",
     "swift test --filter ControlledSchedulingTraitTests"),
    ("budget-ignored", "package func run<",
     "    var spending = family.isSeeded ? budget.map(ScheduleBudgetSpending.init) : nil",
     "    var spending = family.isSeeded ? nil : budget.map(ScheduleBudgetSpending.init)",
     "swift test --filter ScheduleBudgetTests"),
    ("fresh-processes-ignore-the-budget", "private static func eachScheduleAlone(",
     "        guard var budgetSpending = spending, let spend = outcome.runSpend else { continue }",
     "        guard false, var budgetSpending = spending, let spend = outcome.runSpend else { continue }",
     "swift test --filter FreshProcessSeriesTests"),
    ("every-run-seen-as-without-choice", "package struct ScheduleBudgetSpending:",
     "    if !hadChoice && !dependsOnOutsideTiming && coverage.runs == 1 { return .noSchedulingChoice }",
     "    if coverage.runs == 1 { return .noSchedulingChoice }",
     "swift test --filter ScheduleBudgetTests"),
    ("budget-stops-before-its-minimum", "package struct ScheduleBudgetSpending:",
     "    guard coverage.runs >= budget.minimumSchedules else { return nil }\n",
     "",
     "swift test --filter ScheduleBudgetTests"),
    ("stall-ended-by-any-two-yielders", "private mutating func noteYieldDuringStall(",
     "    if yieldersDuringStall.count < 2, tasksMadeDuringStall.contains(task), !yieldersDuringStall.contains(task) {",
     "    if yieldersDuringStall.count < 2, !yieldersDuringStall.contains(task) {",
     "swift test --filter DefaultSeriesPowerTests"),
    ("portfolio-of-depths-one-to-three", "public static func portfolioMember(",
     "    case 0, 2: .random\n    case 1: .pct(depth: 3)\n    default: .pct(depth: 2)",
     "    case 0: .random\n    case let phase: .pct(depth: phase)",
     "swift test --filter DefaultSeriesPowerTests"),
    ("cancelled-operations-take-effect", "package func accepts(",
     "if case .threw(let error) = outcome, error == Self.cancellation { return .withoutEffect }",
     "if case .threw(let error) = outcome, error == Self.cancellation { return .withEffect }",
     "swift test --filter LinearizabilityCheckerTests"),
    ("minimizer-drops-no-pairs", "package struct ScenarioMinimizer<",
     "      if !changed {\n        let places = current.places",
     "      if false, !changed {\n        let places = current.places",
     "swift test --filter ScenarioMinimizerTests"),
    ("scenario-parts-not-waited-for", "static func wait(",
     "      await latch.wait()\n",
     "",
     "swift test --filter LinearizabilityZooTests"),
    ("single-flight-forget-leaves-the-flight", "mutating func forget(",
     "      detached[flight.id] = (key, flight)\n      entries[key] = nil\n",
     "      _ = flight\n",
     "swift test --filter DogfoodTests"),
    ("linearizability-memo-forgets-the-state", "mutating func run() -> LinearizabilityVerdict",
     "if explored.insert(Explored(placed: placed, state: after)).inserted {",
     "if explored.insert(Explored(placed: placed, state: initial)).inserted {",
     "swift test --filter LinearizabilityCheckerTests"),
    ("linearizability-pending-operations-unchecked", "mutating func run() -> LinearizabilityVerdict",
     "        if next[head] == tail, pendingOperationsWait(in: state) {",
     "        if next[head] == tail {",
     "swift test --filter LinearizabilityCheckerTests"),
    ("linearizability-real-time-ignored", "init(history:",
     "      events.sort { ($0.time, $0.isInvocation ? 1 : 0, $0.node) < ($1.time, $1.isInvocation ? 1 : 0, $1.node) }",
     "      events.sort { ($0.isInvocation ? 0 : 1, $0.time, $0.node) < ($1.isInvocation ? 0 : 1, $1.time, $1.node) }",
     "swift test --filter LinearizabilityCheckerTests"),
    ("quiescent-periods-merged", "package struct LinearizabilityChecker<",
     "        if records[index].invocation > end || periods.isEmpty { periods.append([]) }",
     "        if periods.isEmpty { periods.append([]) }",
     "swift test --filter LinearizabilityCheckerTests"),
    # queue-fuzz
    ("parser-skips-queues-of-items", "mutating func validate(_ scenario: Scenario)",
     "        if !queueNames.contains(queue) && !mentionedByMistakes.contains(queue) {",
     "        if ownerName == nil, !queueNames.contains(queue) && !mentionedByMistakes.contains(queue) {",
     "swift test --filter QueueScenariosTests"),
    ("parser-cascades", "mutating func validate(_ scenario: Scenario)",
     "    for item in scenario.items where enqueuedAt[item.name] == nil && !mentionedByMistakes.contains(item.name) {",
     "    for item in scenario.items where enqueuedAt[item.name] == nil {",
     "swift test --filter QueueScenariosTests"),
    ("no-swap-in-edit-distance", "static func editDistance(",
     "        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {",
     "        if false, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {",
     "swift test --filter QueueScenariosTests"),
    ("folder-judged-by-permissions", "static func problemWritingFolder(",
     "          guard mkdir(probe, 0o755) == 0 else {",
     "          guard true else {",
     "swift test --filter CommandRobustness"),
    ("real-queues-broken-fifo", "mutating func enqueue(_ entry:",
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


def block_end(text, start):
    """The index just past the brace that closes the first block opened after `start`."""
    index = text.index("{", start)
    depth = 0
    while True:
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1


def locate(anchor, original):
    """(path, start, end) of the block of the one declaration `anchor` in the worktree's Sources,
    which holds `original` once; or why not, as text."""
    places = []
    for path in sorted((WORK / "Sources").rglob("*")):
        if path.suffix not in (".swift", ".c", ".h"):
            continue
        text = path.read_text()
        start = text.find(anchor)
        while start != -1:
            places.append((path, start))
            start = text.find(anchor, start + 1)
    if len(places) != 1:
        return f"the anchor {anchor!r} occurs {len(places)} times in Sources"
    path, start = places[0]
    end = block_end(path.read_text(), start)
    count = path.read_text()[start:end].count(original)
    if count != 1:
        return f"the piece to mutate occurs {count} times in the block of {anchor!r} ({path.relative_to(WORK)})"
    return path, start, end


def check_anchors():
    """Whether every mutant still finds its piece in the working tree (no build, no test): what
    the lint stage runs, so that a refactor that moves a mutant's piece out of reach fails at once."""
    global WORK
    WORK = ROOT
    lost = [(name, located) for name, anchor, original, _, _ in MUTANTS
            if isinstance(located := locate(anchor, original), str)]
    for name, why in lost:
        print(f"mutants: {name}: {why}")
    if lost:
        sys.exit(f"mutants: {len(lost)} of {len(MUTANTS)} no longer apply")
    print(f"mutants: all {len(MUTANTS)} apply")


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
    for name, anchor, original, mutant, command in chosen:
        located = locate(anchor, original)
        if isinstance(located, str):
            survivors.append(name)
            print(f"mutants: {name}: {located}", flush=True)
            continue
        path, start, end = located
        text = path.read_text()
        file = str(path.relative_to(WORK))
        block = text[start:end]
        path.write_text(text[:start] + block.replace(original, mutant) + text[end:])
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
    if sys.argv[1:] == ["--check"]:
        check_anchors()
    else:
        main(sys.argv[1:])
