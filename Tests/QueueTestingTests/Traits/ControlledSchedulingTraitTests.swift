#if compiler(>=6.3)
  @testable import AsyncQueue
  import Foundation
  @testable import QueueTesting
  @testable import QueueTestingEngine
  import QueueWorkloads
  import Testing

  // MARK: - The task-per-call counter under the trait: the queues pass every schedule

  @Suite("Controlled scheduling trait", .timeLimit(.minutes(5)), .hangGuard)
  struct ControlledSchedulingTraitTests {
    /// The task-per-call counter workload through a FIFOQueue: every item sees the count it expects, and the
    /// queue's own events keep every FIFO guarantee, under 30 schedules.
    @Test(.controlledScheduling(.random(30, seed: 1)))
    func fifoQueueKeepsOrderOnEverySchedule() async {
      #expect(ControlledExecutor.isControlling)
      let counter = CountingActor()
      let queue = FIFOQueue()
      for iteration in 1...100 {
        queue.enqueue { await counter.incrementAndCheck(iteration) }
      }
      await queue.enqueueAndWait {}
      #expect(await counter.outOfOrder == 0)
      expectQueueGuarantees()
    }

    /// The Counter example with an ActorQueue, under 30 PCT schedules.
    @Test(.controlledScheduling(.pct(30, seed: 2)))
    func actorQueueKeepsOrderOnEverySchedule() async {
      let counter = OrderedCounter()
      for iteration in 1...100 { counter.increment(expecting: iteration) }
      await counter.flush()
      #expect(await counter.outOfOrder == 0)
      expectQueueGuarantees()
    }

    /// The same on the main actor: an actor queue of the main actor (a fresh one, as
    /// `MainActor.queue` is shared with tests running beside this one).
    @Test(.controlledScheduling(.random(30, seed: 3)))
    func mainActorQueueKeepsOrderOnEverySchedule() async {
      let queue = ActorQueue<MainActor>()
      queue.adoptExecutionContext(of: MainActor.shared)
      let counter = MainActorCounter()
      for iteration in 1...100 {
        queue.enqueue { _ in
          MainActor.preconditionIsolated()
          counter.incrementAndCheck(iteration)
        }
      }
      await queue.enqueueAndWait { _ in }
      #expect(counter.outOfOrder == 0)
      expectQueueGuarantees()
    }

    /// The task-per-call counterexample itself: 100 `Task {}` from nonisolated code into an actor. Under the trait it
    /// fails, on the same schedule every time: schedule 1 of the series seeded 1 (the harness
    /// interleaves the 100 tasks' starts on its first schedule already). The issues the trait
    /// records are captured (and kept from failing this test) to check what they say.
    @Test func taskPerCallFailsUnderTheTrait() async throws {
      let trait = ControlledSchedulingTrait.controlledScheduling(.random(20, seed: 1))
      let test = try #require(Test.current)
      let issues = try await capturingIssues {
        try await ChildProcessIsolation.$runsInPlace.withValue(true) {
          try await trait.provideScope(for: test, testCase: Test.Case.current) {
            #expect(await naiveTaskPerCallViolations() == 0)
          }
        }
      }
      // One issue: the failing `#expect`, as it was recorded (its kind and place), annotated
      // with its schedule and carrying the rest of the report, the replay line among it.
      try #require(issues.count == 1)
      #expect(issues[0].text.contains("naiveTaskPerCallViolations()"))
      if case .expectationFailed = issues[0].kind {
      } else {
        Issue.record("the issue's kind was not kept: \(issues[0])")
      }
      #expect(issues[0].text.contains("During controlled schedule 1 (random, 20 schedules, seed 1)."))
      #expect(issues[0].text.contains("Explored: "))
      #expect(issues[0].text.contains("Replay it alone: QUEUE_TESTING_SCHEDULE='s1:"))
      #expect(issues[0].text.contains(ControlledScheduling.replayCommand(testID: String(describing: test.id))))
      #expect(!issues[0].text.contains("see above"))
      #expect(issues[0].sourceLocation != test.sourceLocation)
    }

    /// Swift Testing as users write it, in place under the trait: a failing `#require` is one
    /// issue (not also "the body threw"), a known issue is recorded once over all schedules and
    /// stays known, and `Test.cancel` cancels the test (the series stops at it) instead of failing it.
    @Test func requireKnownIssuesAndCancelBehaveAsInPlainSwiftTesting() async throws {
      let trait = ControlledSchedulingTrait.controlledScheduling(.random(5, seed: 1))
      let test = try #require(Test.current)
      let inScope: (@escaping @Sendable () async throws -> Void) async throws -> [Issue] = { body in
        try await capturingIssues {
          try await ChildProcessIsolation.$runsInPlace.withValue(true) {
            try await trait.provideScope(for: test, testCase: Test.Case.current, performing: body)
          }
        }
      }
      let required = try await inScope {
        let missing: Int? = nil
        _ = try #require(missing)
      }
      try #require(required.count == 1, "\(required.map(\.text))")
      #expect(required[0].text.contains("Expectation failed: missing"))
      #expect(!required[0].text.contains("the body threw"))
      #expect(required[0].text.contains("Replay it alone:"))

      let known = try await inScope {
        withKnownIssue("off by one") { #expect(1 + 1 == 3) }
      }
      try #require(known.count == 1, "\(known.map(\.text))")
      #expect(!known[0].isFailure && known[0].severity == .error)

      let runs = LockedState(0)
      var cancelled = false
      do {
        _ = try await inScope {
          runs.withLock { $0 += 1 }
          if runs.withLock({ $0 }) == 2 { try Test.cancel("not configured here") }
        }
      } catch {
        cancelled = ControlledScheduling.isTestCancellation(error)
      }
      #expect(cancelled)
      #expect(runs.withLock { $0 } == 2)
    }

    /// A case of a parameterized test is named by its arguments, with their labels (what a
    /// failure says and `QUEUE_TESTING_ARGUMENTS` selects) and as the event stream names it.
    @Test(arguments: [(20, "twenty")])
    func aCaseIsNamedByItsArguments(value: Int, name: String) {
      #expect(TestCaseArguments.text(of: Test.Case.current) == #"value: 20, name: "twenty""#)
      #expect(TestCaseArguments.displayName(of: Test.Case.current) == #"20, "twenty""#)
    }

    /// A test that is not parameterized has no arguments to name.
    @Test func aPlainTestHasNoArguments() {
      #expect(TestCaseArguments.text(of: Test.Case.current) == nil)
    }

    /// A series whose caller is cancelled (a test past its `.timeLimit`) stops after the schedule
    /// running, passing so far: the time limit's own issue is the test's one report.
    @available(ExecutorHooks 1.0, *)
    @Test func aCancelledCallerStopsTheSeries() async throws {
      let runs = LockedState(0)
      let task = Task {
        await ControlledScheduling(.random(50, seed: 1)).run {
          runs.withLock { $0 += 1 }
        }
      }
      task.cancel()
      let report = await task.value
      #expect(report.stoppedByTaskCancellation)
      #expect(report.failure == nil)
      #expect(report.schedulesRun == 1)
      #expect(runs.withLock { $0 } == 1)
    }

    /// The replay line selects the failing test and nothing else: its filter is the full test ID,
    /// escaped and anchored, so a test whose name extends it, one of the same name in another
    /// suite, or an ID with regex or shell characters is matched exactly.
    @Test(arguments: [
      "Tests.Suite/name()/File.swift:12:4",
      "Tests.Suite/name(x:y:)/File.swift:12:4",
      "Tests.Suite/it's [a] (b)*+?.^$|{c}",
      "Tests.Suite/testName",
    ])
    func replayFilterSelectsExactlyTheTest(_ id: String) throws {
      let command = ControlledScheduling.replayCommand(testID: id)
      // Undo the shell's single quotes as a POSIX shell would.
      let prefix = "swift test --filter "
      try #require(command.hasPrefix(prefix))
      let quoted = command.dropFirst(prefix.count)
      let pattern = quoted.dropFirst().dropLast().replacingOccurrences(of: #"'\''"#, with: "'")
      let regex = try Regex(pattern)
      #expect(id.wholeMatch(of: regex) != nil, "\(command) does not select \(id)")
      for other in [id + "Fixed", "Other." + id, "X" + id, String(id.dropLast())] {
        #expect(other.firstMatch(of: regex) == nil, "\(command) also selects \(other)")
      }
    }

    /// On a system older than controlled runs need, the trait records an issue naming the
    /// versions they need, at the test's location, and never runs the body uncontrolled.
    @Test func olderSystemFailsWithoutRunningTheBody() async throws {
      let trait = ControlledSchedulingTrait.controlledScheduling(.random(5, seed: 1))
      let test = try #require(Test.current)
      let ran = LockedState(false)
      let issues = try await capturingIssues {
        try await ControlledScheduling.$simulatesUnsupportedSystem.withValue(true) {
          try await trait.provideScope(for: test, testCase: Test.Case.current) {
            ran.withLock { $0 = true }
          }
        }
      }
      #expect(!ran.withLock { $0 })
      try #require(issues.count == 1)
      #expect(
        issues[0].text.contains(
          "did not run: controlled scheduling needs macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4 or visionOS 26.4"))
      #expect(issues[0].text.contains("The body was not run uncontrolled."))
      #expect(issues[0].sourceLocation == test.sourceLocation)
    }

    /// The engine behind the trait stops at the first failing schedule and says which; the
    /// failing schedule replays alone, through the environment variable, with the same trace.
    @available(ExecutorHooks 1.0, *)
    @Test func firstFailureStopsTheSeriesAndReplays() async throws {
      let scheduling = ControlledScheduling(.random(20, seed: 1))
      let body: @Sendable () async throws -> Void = {
        if await naiveTaskPerCallViolations() > 0 { throw OutOfOrder() }
      }
      let report = await scheduling.run(body)
      let failure = try #require(report.failure)
      #expect(failure.scheduleNumber == 1)
      #expect(report.schedulesRun == 1)
      #expect(failure.problem == .threw("OutOfOrder()"))

      let replay = try scheduling.resolved(environment: [
        ControlledScheduling.scheduleVariable: failure.run.schedule.description
      ])
      #expect(replay.series == .replay(failure.run.schedule))
      let replayed = try #require(await replay.run(body).failure)
      #expect(replayed.run.trace.hash == failure.run.trace.hash)
    }

    /// Exit status, message and report of a test whose run deadlocks under the trait: the
    /// process ends (status 86) with the deadlock report on standard error, instead of hanging.
    @available(ExecutorHooks 1.0, *)
    @Test func deadlockUnderTheTraitEndsTheProcessWithTheReport() async throws {
      // The child's issue (the trait's failure) comes back to this test: it is the expected one.
      var child: ExitTest.Result?
      await withKnownIssue {
        child = await #expect(
          processExitsWith: .exitCode(ControlledSchedulingTrait.abandonedTestExitStatus),
          observing: [\.standardErrorContent]
        ) {
          try? await ControlledSchedulingTrait.run(
            {
              await withNamedContinuation("reply", park)
            }, under: ControlledScheduling(.random(5)), testName: "stuck()", testID: "M.S/stuck()",
            sourceLocation: SourceLocation(fileID: "M/F.swift", filePath: "/F.swift", line: 1, column: 1))
        }
      } matching: { issue in
        issue.sourceLocation?.fileID == "M/F.swift"
      }
      let stderr = String(decoding: try #require(child).standardErrorContent, as: UTF8.self)
      #expect(stderr.contains("stuck() cannot finish; ending the test process"))
      #expect(stderr.contains("Controlled schedule 1 failed (random, 5 schedules, seed 0): the run deadlocked."))
      #expect(stderr.contains("waits at continuation 'reply'"))
    }

    /// The naive actor cache (check, await the download, store) downloads twice when two calls
    /// interleave: an exhaustive search finds the schedule.
    @available(ExecutorHooks 1.0, *)
    @Test func naiveActorCacheDownloadsTwice() async throws {
      let scheduling = ControlledScheduling(.exhaustive(delayBound: nil, budget: 2_000))
      let report = await scheduling.run {
        let downloader = Downloader()
        let cache = NaiveImageCache(downloader: downloader)
        if try await fetchTwice(cache) > 1 { throw DownloadedTwice() }
      }
      let failure = try #require(report.failure)
      #expect(failure.problem == .threw("DownloadedTwice()"))
      // Depth first, the search reaches the interleaving after a handful of schedules.
      #expect(failure.scheduleNumber <= 10)
    }

    /// The naive actor cache with the mock server written as a plain actor whose method never
    /// suspends: the only interleaving point is the cache's hop onto the (idle) mock and back,
    /// which the runtime would take inline. Found early by random, PCT and exhaustive search.
    @Test(arguments: [ScheduleSeries.random(100, seed: 1), .pct(100, depth: 2, seed: 1), .exhaustive(delayBound: nil)])
    @available(ExecutorHooks 1.0, *)
    func naiveCacheWithASynchronousMockDownloadsTwice(_ series: ScheduleSeries) async throws {
      let report = await ControlledScheduling(series).run {
        let cache = NaiveImageCache(downloader: Downloader(suspends: false))
        if try await fetchTwice(cache) > 1 { throw DownloadedTwice() }
      }
      let failure = try #require(report.failure)
      #expect(failure.problem == .threw("DownloadedTwice()"))
      #expect(failure.scheduleNumber <= 10)
    }

    /// The in-flight task cache with the synchronous mock downloads once on every schedule.
    @available(ExecutorHooks 1.0, *)
    @Test func inFlightCacheWithASynchronousMockDownloadsOnce() async throws {
      for series in [ScheduleSeries.random(200, seed: 1), .exhaustive(delayBound: nil, budget: 20_000)] {
        let report = await ControlledScheduling(series).run {
          let cache = InFlightImageCache(downloader: Downloader(suspends: false))
          if try await fetchTwice(cache) > 1 { throw DownloadedTwice() }
        }
        #expect(report.failure == nil, "\(series)")
        #expect(report.schedulesRun > 1)
      }
    }

    /// The in-flight task cache fix (the in-flight task is cached before the first suspension) downloads once
    /// on every schedule of the whole, unbounded space.
    @available(ExecutorHooks 1.0, *)
    @Test func inFlightTaskCacheDownloadsOnceOverExhaustiveSearch() async throws {
      let scheduling = ControlledScheduling(.exhaustive(delayBound: nil, budget: 20_000))
      let report = await scheduling.run {
        let downloader = Downloader()
        let cache = InFlightImageCache(downloader: downloader)
        if try await fetchTwice(cache) > 1 { throw DownloadedTwice() }
      }
      #expect(report.failure == nil)
      // Every schedule ran, and the cache's in-flight `Task {}`, made in the run, got the
      // harness's preference: each of its hops was a choice, so the space is exhausted.
      #expect(report.schedulesRun > 1 && report.schedulesRun < 20_000)
      #expect(report.exhausted == true, "\(report.outsideWork)")
      #expect(report.inlineHopTasks.isEmpty, "\(report.inlineHopTasks)")
    }

    /// An issue recorded by a helper points at the line that called the helper.
    @Test func helperIssuePointsAtTheCallersLine() {
      let recorder = OrderRecorder()
      recorder.mark("second")
      recorder.mark("first")
      let expectedLine = #line + 2
      withKnownIssue {
        expectOrder(recorder, ["first", "second"])
      } matching: { issue in
        issue.sourceLocation?.line == expectedLine && issue.sourceLocation?.fileID == #fileID
          && issue.comments.contains { $0.rawValue.contains("expected [\"first\", \"second\"]") }
      }
    }

    /// A helper of one's own forwards its caller's location, and the issue lands there.
    @Test func forwardedLocationReachesTheOuterCaller() {
      let recorder = OrderRecorder()
      recorder.mark("b")
      let expectedLine = #line + 2
      withKnownIssue {
        expectAlphabetical(recorder, ["a", "b"])
      } matching: { issue in
        issue.sourceLocation?.line == expectedLine
      }
    }

    /// `expectQueueGuarantees` catches a broken queue (a `Task` per item) on an early schedule,
    /// and the series stops there.
    @available(ExecutorHooks 1.0, *)
    @Test func queueGuaranteeExpectationCatchesABrokenQueue() async throws {
      let scheduling = ControlledScheduling(.random(20, seed: 1))
      let report = LockedState<ControlledScheduling.Report?>(nil)
      let issues = try await capturingIssues {
        let result = await scheduling.run {
          let queue = TaskPerItemQueue()
          for _ in 1...5 { queue.enqueue {} }
          await queue.drain()
          expectQueueGuarantees([.fifoStart])
        }
        report.withLock { $0 = result }
      }
      let failure = try #require(report.withLock { $0 }?.failure)
      #expect(failure.problem == .failuresRecorded(1))
      #expect(failure.scheduleNumber <= 3)
      // `run` reports the failure and records nothing in the calling test.
      #expect(issues.isEmpty)
      #expect(
        failure.failureMarks.first?.text.contains("Queue guarantee broken: fifo-start violated on queue 'broken'")
          == true)
    }

    /// Under controlled schedules, `expectQueueGuarantees` knows a concurrent queue's width and
    /// barriers from the queue itself: a queue that runs every item at once is caught running
    /// more than its width, and items beside its barriers.
    @available(ExecutorHooks 1.0, *)
    @Test func queueGuaranteeExpectationKnowsWidthsAndBarriers() async throws {
      let scheduling = ControlledScheduling(.random(20, seed: 1))
      let report = LockedState<ControlledScheduling.Report?>(nil)
      _ = try await capturingIssues {
        let result = await scheduling.run {
          let queue = TaskPerItemQueue(width: 2)
          for _ in 1...5 {
            queue.enqueue {
              await Task.yield()
              await Task.yield()
            }
          }
          await queue.drain()
          expectQueueGuarantees([.concurrentWidth, .concurrentBarrier])
        }
        report.withLock { $0 = result }
      }
      let failure = try #require(report.withLock { $0 }?.failure)
      let text = failure.failureMarks.map(\.text).joined(separator: "\n")
      #expect(text.contains("concurrent-width violated on queue 'broken'"), "\(text)")
      #expect(text.contains("concurrent-barrier violated on queue 'broken'"), "\(text)")
      #expect(text.contains("expected at most 2 at once"), "\(text)")
    }

    /// The environment adjusts a configuration, and bad values are errors that say why.
    @Test func environmentResolution() throws {
      let base = ControlledScheduling(.random(10, seed: 4))
      #expect(try base.resolved(environment: [:]) == base)
      #expect(try base.resolved(environment: ["QUEUE_TESTING_SEED": "99"]).series == .random(10, seed: 99))
      #expect(
        try base.resolved(environment: ["QUEUE_TESTING_SCHEDULE": "s1:1.0.2"]).series
          == .replay(Schedule(choices: [1, 0, 2])))
      #expect(
        throws: ControlledSchedulingError(
          message: "QUEUE_TESTING_SEED=x: expected a decimal number from 0 to 18446744073709551615")
      ) {
        try base.resolved(environment: ["QUEUE_TESTING_SEED": "x"])
      }
      let error = #expect(throws: ControlledSchedulingError.self) {
        try base.resolved(environment: ["QUEUE_TESTING_SCHEDULE": "0.1"])
      }
      #expect(error?.message.hasPrefix("QUEUE_TESTING_SCHEDULE=0.1: ") == true)
    }

    /// A schedule too long for a command line is saved in a file, the failure's replay line names
    /// the file, and the environment variable that names it replays the schedule; a missing file,
    /// a bad schedule in it, or both variables at once are errors that say which.
    @Test func longSchedulesReplayFromAFile() throws {
      let long = Schedule(choices: Array(repeating: 1, count: 1_500))
      #expect("\(long)".utf8.count > ScheduleFile.longestInline)
      let path = try #require(ScheduleFile.save(long, stem: "longSchedulesReplayFromAFile", traceHash: 0xbeef))
      defer { try? FileManager.default.removeItem(atPath: path) }
      let base = ControlledScheduling(.random(10, seed: 4))
      let replay = try base.resolved(environment: [ControlledScheduling.scheduleFileVariable: path])
      #expect(replay.series == .replay(long))
      let rerun = replay.rerunLine(testID: "M.S/t()")
      #expect(rerun.hasPrefix("QUEUE_TESTING_SCHEDULE_FILE='\(path)' swift test --filter"))
      #expect(rerun.utf8.count < 1_000)

      let missing = #expect(throws: ControlledSchedulingError.self) {
        try base.resolved(environment: [ControlledScheduling.scheduleFileVariable: "/no/such/file.schedule"])
      }
      #expect(
        missing?.message
          == "QUEUE_TESTING_SCHEDULE_FILE=/no/such/file.schedule: the file cannot be read (does it exist?)")
      let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).schedule")
      try Data("not a schedule".utf8).write(to: bad)
      defer { try? FileManager.default.removeItem(at: bad) }
      let unparsable = #expect(throws: ControlledSchedulingError.self) {
        try base.resolved(environment: [ControlledScheduling.scheduleFileVariable: bad.path])
      }
      #expect(unparsable?.message.hasPrefix("QUEUE_TESTING_SCHEDULE_FILE=\(bad.path): ") == true)
      #expect(throws: ControlledSchedulingError.self) {
        try base.resolved(environment: [
          ControlledScheduling.scheduleFileVariable: path, ControlledScheduling.scheduleVariable: "s1:0",
        ])
      }
    }

    /// A failure whose schedule is long says where it was saved, and its replay line stays short.
    @available(ExecutorHooks 1.0, *)
    @Test func aLongFailingScheduleIsSavedAndNamed() throws {
      let report = ControlledScheduling(.random(1), stepBudget: 3_000, reducing: nil).runSeries(
        {
          // Two tasks that never stop yielding: a choice at every step, up to the budget.
          await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 { group.addTask { while true { await Task.yield() } } }
          }
        }, failureCount: nil)
      let failure = try #require(report.failure)
      #expect("\(failure.run.schedule)".utf8.count > ScheduleFile.longestInline)
      let path = try #require(ScheduleFile.saveIfLong(failure, stem: "aLongFailingSchedule"))
      defer { try? FileManager.default.removeItem(atPath: path) }
      let message = failure.message(testID: "M.S/t()", scheduleFile: path)
      #expect(message.contains("choices, too long to print here; saved in \(path)"))
      let replayLine = try #require(message.split(separator: "\n").first { $0.hasPrefix("Replay it alone: ") })
      let command = ControlledScheduling.replayCommand(testID: "M.S/t()")
      #expect(replayLine == "Replay it alone: QUEUE_TESTING_SCHEDULE_FILE='\(path)' \(command)")
      #expect(try ScheduleFile.read(path, variable: "V") == failure.run.schedule)
    }
  }

  /// On a suite, the trait applies to each test inside.
  @Suite(.controlledScheduling(.random(5, seed: 9)), .timeLimit(.minutes(5)))
  struct ControlledSuiteTests {
    @Test func runsUnderControl() async {
      #expect(ControlledExecutor.isControlling)
      await Task.yield()
      #expect(ControlledExecutor.traceSoFar != nil)
    }
  }

  // MARK: - Helpers

  /// Runs `body` and returns the issues it records, which do not reach the running test.
  func capturingIssues(_ body: @Sendable () async throws -> Void) async throws -> [Issue] {
    let captured = LockedState<[Issue]>([])
    let capture = IssueHandlingTrait.compactMapIssues { issue in
      captured.withLock { $0.append(issue) }
      return nil
    }
    try await capture.provideScope(for: try #require(Test.current), testCase: Test.Case.current, performing: body)
    return captured.withLock { $0 }
  }

  extension Issue {
    /// The issue's description and comments, one per line.
    var text: String {
      ([description] + comments.map(\.rawValue)).joined(separator: "\n")
    }
  }

  /// A broken FIFO queue (the task-per-call flaw): a `Task` per item, which reports its items to the
  /// harness exactly as the real queues do, so the oracles see what it does.
  @available(ExecutorHooks 1.0, *)
  final class TaskPerItemQueue: Sendable {
    private let tasks = LockedState<[Task<Void, Never>]>([])
    private let description: QueueDescription

    /// A broken FIFO queue, or, with a `width`, a broken concurrent queue of that width whose
    /// every other item is a barrier.
    init(width: Int? = nil) {
      description = QueueDescription(
        id: ObjectIdentifier(LockedState<Int>.self), name: "broken", kind: width == nil ? .fifo : .concurrent,
        width: width)
    }

    func enqueue(_ operation: @escaping @Sendable () async -> Void) {
      let number = tasks.withLock { $0.count }
      let barrier = description.width != nil && number % 2 == 1
      let token = RunDriver.shared.itemEnqueued(on: description, waiting: false, barrier: barrier)
      let task = Task {
        if let token { RunDriver.shared.itemStarted(token) }
        await operation()
        if let token { RunDriver.shared.itemFinished(token) }
      }
      tasks.withLock { $0.append(task) }
    }

    func drain() async {
      for task in tasks.withLock({ $0 }) { await task.value }
    }
  }

  struct OutOfOrder: Error {}

  /// Keeps the continuations deadlock tests never resume (dropping one prints a misuse warning).
  let parkedContinuations = LockedState<[CheckedContinuation<Void, Never>]>([])
  func park(_ continuation: CheckedContinuation<Void, Never>) {
    parkedContinuations.withLock { $0.append(continuation) }
  }
  struct DownloadedTwice: Error {}

  /// A helper of a test suite's own, forwarding its caller's location.
  func expectAlphabetical(
    _ recorder: OrderRecorder, _ expected: [String],
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    expectOrder(recorder, expected, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The task-per-call count check for items that run on the main actor (the queue serializes them).
  final class MainActorCounter: Sendable {
    private let state = LockedState((count: 0, outOfOrder: 0))
    func incrementAndCheck(_ expected: Int) {
      state.withLock { state in
        state.count += 1
        if state.count != expected { state.outOfOrder += 1 }
      }
    }
    var outOfOrder: Int { state.withLock(\.outOfOrder) }
  }

  /// The cache's download, counted; it suspends, as a real download would.
  actor Downloader {
    private(set) var downloads = 0
    /// Whether a download suspends inside (a server that answers later) or returns at once
    /// (the plain actor a test usually writes as a mock).
    let suspends: Bool
    init(suspends: Bool = true) { self.suspends = suspends }

    func download(_ url: String) async throws -> String {
      downloads += 1
      if suspends { await Task.yield() }
      return "image of \(url)"
    }
  }

  protocol DownloadingCache: Actor {
    var downloader: Downloader { get }
    func image(from url: String) async throws -> String
  }

  /// Two concurrent requests for one image; returns how many downloads happened.
  func fetchTwice(_ cache: some DownloadingCache) async throws -> Int {
    async let first = cache.image(from: "u")
    async let second = cache.image(from: "u")
    _ = try await (first, second)
    return await cache.downloader.downloads
  }

  /// The naive cache: the check and the store are separated by a suspension.
  actor NaiveImageCache: DownloadingCache {
    let downloader: Downloader
    private var cache: [String: String] = [:]
    init(downloader: Downloader) { self.downloader = downloader }

    func image(from url: String) async throws -> String {
      if let cached = cache[url] { return cached }
      let image = try await downloader.download(url)
      cache[url] = image
      return image
    }
  }

  /// The in-flight task cache: the in-flight task is stored before the first suspension.
  actor InFlightImageCache: DownloadingCache {
    private enum Entry {
      case inProgress(Task<String, any Error>)
      case ready(String)
    }
    let downloader: Downloader
    private var cache: [String: Entry] = [:]
    init(downloader: Downloader) { self.downloader = downloader }

    func image(from url: String) async throws -> String {
      switch cache[url] {
      case .ready(let image): return image
      case .inProgress(let task): return try await task.value
      case nil: break
      }
      let downloader = self.downloader
      let task = Task { try await downloader.download(url) }
      cache[url] = .inProgress(task)
      do {
        let image = try await task.value
        cache[url] = .ready(image)
        return image
      } catch {
        cache[url] = nil
        throw error
      }
    }
  }
#endif
