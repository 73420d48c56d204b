#if compiler(>=6.3)
  import Foundation
  import Testing

  /// A Swift Testing trait that runs each test it applies to under ``ControlledScheduling``:
  /// every job the test causes runs on one thread in an order chosen from a seed, for each
  /// schedule of a series, until one fails.
  ///
  /// ```swift
  /// @Test(.controlledScheduling(.random(100, seed: 7)))
  /// func ordersWork() async {
  ///   let queue = FIFOQueue()
  ///   let recorder = OrderRecorder()
  ///   queue.enqueue { recorder.mark("first") }
  ///   queue.enqueue { recorder.mark("second") }
  ///   await queue.enqueueAndWait {}
  ///   expectOrder(recorder, ["first", "second"])
  /// }
  /// ```
  ///
  /// On a `@Suite` it applies to every test inside. A failing schedule fails the test with a
  /// message naming the schedule and a line that replays it alone, and the run's trace is
  /// attached (`swift test --attachments-path DIR` writes it to disk).
  ///
  /// The rest of Swift Testing works as in a plain test, adapted to a body that runs many times:
  /// each failure of the failing schedule is one issue (the first carries the report); known
  /// issues are recorded once; `Test.cancel` cancels the test; each case of a parameterized
  /// test is its own series, and its replay line selects it (``ControlledScheduling/argumentsVariable``);
  /// a `.timeLimit` overrun stops the series. In a child process, the output the body writes is
  /// shown for one schedule: the failing one, or the first when all pass.
  ///
  /// Clocks: in the run's jobs, `ContinuousClock.now`, `SuspendingClock.now`, `Date()` and
  /// `DispatchTime.now()` read the real time plus the virtual time the run skipped, so a sleep
  /// that ends at once in virtual time still measures its length (on Linux, not under the thread
  /// sanitizer; see ``ControlledExecutor/clockReadsFollowVirtualTime``). ``VirtualClock`` is the
  /// run's virtual time itself.
  ///
  /// A test whose run deadlocks, exceeds the step budget or waits for an outside wake-up that
  /// never comes cannot finish, and Swift Testing has no way to abandon a running test function.
  /// So, when the test binary was started by a command line that selects Swift Testing (as
  /// `swift test` does), the tests under the trait run in child processes of that binary, each
  /// child running the controlled tests waiting when it started, one after another: a test that
  /// cannot finish (or crashes) ends only its child, the parent records the child's issues (the
  /// deadlock report, the replay line) at their places, says that the test did not finish, and the
  /// tests the child had not reached run in a new one. Set `QUEUE_TESTING_ISOLATION=none` to run tests in place;
  /// then, and where no child can be started, a test that cannot finish records its failure,
  /// writes it to standard error and ends the test process with exit status
  /// ``abandonedTestExitStatus``, rather than let the run hang. The XCTest entry point and
  /// ``ControlledScheduling/run(_:)``, which take escaping closures, abandon the body and go on.
  public struct ControlledSchedulingTrait: TestTrait, SuiteTrait, TestScoping {
    /// The schedules each test runs under.
    public var scheduling: ControlledScheduling

    /// The exit status of a test process ended because a test under the trait could not finish.
    public static let abandonedTestExitStatus: Int32 = 86

    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    /// Runs `function` under ``scheduling`` (as the environment adjusts it).
    public func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      // A suite's own scope (no test case) runs as usual; its tests get the trait themselves.
      guard testCase != nil else { return try await function() }
      guard !ControlledScheduling.simulatesUnsupportedSystem,
        #available(ExecutorHooks 1.0, *)
      else {
        Issue.record(
          Comment(rawValue: ControlledScheduling.unsupportedSystemMessage(testName: test.name)),
          sourceLocation: test.sourceLocation)
        return
      }
      let environment = ProcessInfo.processInfo.environment
      // Each case of a parameterized test is a series of its own, named by its arguments; a
      // replay line runs one case alone by naming them.
      let arguments = TestCaseArguments.text(of: testCase)
      if let selected = environment[ControlledScheduling.argumentsVariable], let arguments,
        arguments != selected.trimmingCharacters(in: .whitespaces)
      {
        try Test.cancel(Comment(rawValue: "\(ControlledScheduling.argumentsVariable) selects the case \(selected)"))
      }
      #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        // No child processes where an app cannot start one: tests run in place there.
        if ChildProcessIsolation.applies(environment: environment, arguments: CommandLine.arguments) {
          try await Self.runInChild(
            test, testCase: testCase, arguments: arguments, under: self.scheduling, environment: environment)
          return
        }
      #endif
      var scheduling: ControlledScheduling
      do {
        scheduling = try self.scheduling.resolved(environment: environment)
      } catch {
        Issue.record(Comment(rawValue: error.message), sourceLocation: test.sourceLocation)
        return
      }
      // A job past the limit fails the test: in place, the run gives up on it and returns; in a
      // child process, the watchdog ends the child with the same report (the child's driver is
      // the test's own thread, which keeps the body's thread-bound state as it is in place).
      scheduling.jobTimeLimit = JobWatchdog.jobTimeLimit(testTimeLimit: test.timeLimit, environment: environment)
      let testID = ChildProcessIsolation.testID(test)
      #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        if ChildProcessIsolation.isChild(environment: environment) {
          scheduling.jobTimeLimit = nil
          Self.startWatchdog(for: test, arguments: arguments, scheduling: scheduling, environment: environment)
          CrashNote.install()
          // Which case of a parameterized test runs now, for the parent to blame a crash on it.
          if let arguments {
            FileHandle.standardError.write(Data("\n\(TestCaseArguments.runningMarker)\(testID)\t\(arguments)\n".utf8))
          }
          // One schedule's output, not a hundred (see `ScheduleOutput`).
          if let folder = environment[ScheduleOutput.variable] {
            let output = ScheduleOutput(folder: folder, testID: testID, arguments: arguments)
            try await ScheduleOutput.$current.withValue(output) {
              try await Self.run(
                function, under: scheduling, testName: test.name, testID: testID, arguments: arguments,
                tagsIssues: true, sourceLocation: test.sourceLocation)
            }
            return
          }
        }
      #endif
      try await Self.run(
        function, under: scheduling, testName: test.name, testID: testID, arguments: arguments,
        sourceLocation: test.sourceLocation)
    }

    #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
      /// Runs `test` in a child process (see ``ChildProcessIsolation``) and records what the child
      /// says of this case. The cases of a test share one child; each records what the child says
      /// of it, and the case that started the child records what belongs to no case (a crash).
      static func runInChild(
        _ test: Test, testCase: Test.Case?, arguments: String?, under scheduling: ControlledScheduling,
        environment: [String: String]
      ) async throws {
        var (outcome, started) = await ChildProcessIsolation.run(test)
        let resolved = try? scheduling.resolved(environment: environment)
        // A failure after the first schedule may be state the body left behind, not a bug:
        // tell them apart in fresh processes (see `FreshProcessSeries`). Not for the cases of
        // a parameterized test, which share their child. A mode the environment misspells is
        // an issue of its own; the child's outcome is recorded as it came.
        if started, arguments == nil, let resolved {
          do {
            let mode = try FreshProcessSeries.Mode.from(environment: environment)
            let settled = await Self.settle(
              outcome, of: test, series: resolved.series, budget: resolved.budget, mode: mode)
            outcome = settled.outcome
            if let note = settled.note {
              Issue.record(Comment(rawValue: note), severity: .warning, sourceLocation: test.sourceLocation)
            }
          } catch {
            Issue.record(Comment(rawValue: error.message), sourceLocation: test.sourceLocation)
          }
        }
        try ChildProcessIsolation.record(
          outcome, testName: test.name, sourceLocation: test.sourceLocation,
          scheduling: resolved, testID: ChildProcessIsolation.testID(test),
          arguments: arguments, caseName: TestCaseArguments.displayName(of: testCase), recordsWhatNoCaseOwns: started)
      }

      /// Settles a child's outcome in fresh processes (see ``FreshProcessSeries``), on a thread of
      /// its own: waiting for a child blocks a thread, and not one of the pool's.
      static func settle(
        _ outcome: ChildProcessIsolation.Outcome, of test: Test, series: ScheduleSeries, budget: ScheduleBudget?,
        mode: FreshProcessSeries.Mode
      ) async -> (outcome: ChildProcessIsolation.Outcome, note: String?) {
        let id = ChildProcessIsolation.testID(test)
        let timeLimit = test.timeLimit
        let jobTimeLimit = JobWatchdog.jobTimeLimit(
          testTimeLimit: timeLimit, environment: ProcessInfo.processInfo.environment)
        let name = test.name
        return await withCheckedContinuation { continuation in
          Thread {
            let settled = FreshProcessSeries.settle(
              outcome, series: series, budget: budget, mode: mode, testName: name
            ) { environment in
              let (process, events) = ChildProcessIsolation.spawn(
                testIDs: [id], timeLimit: timeLimit, jobTimeLimit: jobTimeLimit, environment: environment)
              var outcome =
                WorkerBatch(tests: [id]).split(events: WorkerBatch.events(events), process: process).outcomes[id]
                ?? process
              outcome.runSpend = ScheduleOutput.takeRunSpend(testID: id)
              return outcome
            }
            continuation.resume(returning: settled)
          }.start()
        }
      }

      /// In the child process that runs `test`: ends it, with a report, when one job runs past the
      /// limit, or when the parent is gone (see ``JobWatchdog``).
      @available(ExecutorHooks 1.0, *)
      static func startWatchdog(
        for test: Test, arguments: String?, scheduling: ControlledScheduling, environment: [String: String]
      ) {
        let name = test.name
        let series = scheduling.series
        let rerun = scheduling.rerunLine(testID: ChildProcessIsolation.testID(test), arguments: arguments)
        JobWatchdog.start(
          limit: JobWatchdog.jobTimeLimit(testTimeLimit: test.timeLimit, environment: environment),
          parent: environment[JobWatchdog.parentVariable].flatMap { Int32($0) },
          heartbeat: environment[ChildProcessIsolation.heartbeatVariable]
        ) { task, step, seconds in
          let schedule = ControlledScheduling.scheduleInProgress.withLock { $0 }
          let label = task == 1 ? "task 1 (the test's body)" : "task \(task)"
          let wait =
            ControlledExecutor.driverBlockingWait.map { "blocked in \($0)" }
            ?? "with no known blocking call on its thread (a loop that never suspends, or a wait QueueTesting does not know)"
          let why =
            ControlledExecutor.activeRunLeftOneJobAtATime
            ? "and no other job of the run started in that time: the run went on beside the job once it overstayed "
              + "its slice, and nothing of it moved (a deadlock of blocked threads, or a wait for something that "
              + "never happens), so the child process running this test was ended"
            : "A job that never suspends (a loop that never awaits, a blocking wait) keeps the one thread a "
              + "controlled run without a job slice has, so the child process running this test was ended"
          return """
            \(name) is stuck: the job of \(label) at step \(step) of controlled schedule \(schedule) \
            (\(series)) has run for \(seconds) s without returning, \(wait)\(why.first == "a" ? ", " : ". ")\(why); \
            the rest of the suite runs on. To run the series to that schedule again: \(rerun)
            """
        }
      }
    #endif

    /// `testName-schedule-N`, with the characters of the test's name that are not letters or digits
    /// turned into `-` (`controlled-schedule-N` without a name).
    static func attachmentStem(testName: String?, scheduleNumber: Int) -> String {
      guard let testName else { return "controlled-schedule-\(scheduleNumber)" }
      let words = testName.split { !($0.isLetter || $0.isNumber) }
      return words.joined(separator: "-") + "-schedule-\(scheduleNumber)"
    }

    /// Runs `function` under `scheduling` and reports the first failing schedule: each failure
    /// its body recorded there once, the first carrying the failure's report and replay line
    /// (or, for a failure no issue records — a deadlock, a thrown error — one issue at the
    /// test's location); the known issues of one schedule; and a `Test.cancel` as the test's
    /// cancellation.
    @available(ExecutorHooks 1.0, *)
    static func run(
      _ function: @Sendable () async throws -> Void, under scheduling: ControlledScheduling, testName: String?,
      testID: String?, arguments: String? = nil, tagsIssues: Bool = false, sourceLocation: SourceLocation
    ) async throws {
      // In a child, each issue of a parameterized test's case says which case it is.
      let tag = tagsIssues ? arguments.map { [Comment(rawValue: TestCaseArguments.issueTag + $0)] } ?? [] : []
      let cancellation: (any Error)? = await withoutActuallyEscaping(function) { body in
        let held = await scheduling.runHoldingIssues(body)
        #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
          let name = testName ?? "The test"
          if let failure = held.report.failure {
            ScheduleOutput.current?.keep(
              failed: true,
              header: "\(name) printed, during controlled schedule \(failure.scheduleNumber) (\(scheduling.series)), "
                + "the one that failed:")
          } else {
            ScheduleOutput.current?.keep(
              failed: false,
              header: "\(name) printed, during controlled schedule 1 of \(held.report.schedulesRun) "
                + "(\(scheduling.series); the output of the others is not shown):")
          }
        #endif
        for var issue in held.knownIssues {
          issue.comments += tag
          await record(issue)
        }
        guard let failure = held.report.failure else {
          #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
            // A schedule run alone in a fresh process: the parent spends the series' budget.
            if scheduling.series.onlyIndex != nil, let spend = held.report.lastPassingRun {
              ScheduleOutput.current?.keepRunSpend(spend)
            }
          #endif
          if scheduling.summarizesPassingSeries {
            ControlledScheduling.recordWarning(
              "\(testName ?? "The test") passed under \(scheduling.series): \(held.report.extent)",
              sourceLocation: sourceLocation)
          }
          return held.cancellation
        }
        // Named after the test, so that the attachments of several failing tests written to one
        // folder (`swift test --attachments-path`) stay apart.
        let stem = Self.attachmentStem(testName: testName, scheduleNumber: failure.scheduleNumber)
        // A schedule too long for a command line goes to a file the replay line names.
        let scheduleFile = ScheduleFile.saveIfLong(failure, stem: stem)
        let message = failure.message(testID: testID, scheduleFile: scheduleFile, arguments: arguments)
        await recordFailure(
          failure, message: message, issues: held.issues, arguments: arguments, tag: tag,
          sourceLocation: sourceLocation)
        if scheduleFile != nil {
          Attachment.record("\(failure.run.schedule)\n", named: "\(stem).schedule", sourceLocation: sourceLocation)
        }
        Attachment.record(failure.traceText(), named: "\(stem)-trace.txt", sourceLocation: sourceLocation)
        Attachment.record(failure.chart.html, named: "\(stem).html", sourceLocation: sourceLocation)
        if failure.leftBodyUnfinished {
          // The abandoned run still holds `body`, a closure that must not outlive this scope
          // (`withoutActuallyEscaping` would trap on leaving it). Its tasks never run again, but
          // the only way out that neither traps nor hangs is to end the process here.
          let text =
            "QueueTesting: \(testName ?? "a test") cannot finish; ending the test process.\n\(message)\n"
          FileHandle.standardError.write(Data(text.utf8))
          exit(abandonedTestExitStatus)
        }
        return nil
      }
      if let cancellation { throw cancellation }
    }

    /// Records the failing schedule `failure` in the test: the body's own failures, each with
    /// where it happened and the first with the rest of the report (`message`); or, for a
    /// failure that is not the body's (a deadlock, a throw), the report itself.
    private static func recordFailure(
      _ failure: ScheduleFailure<ScheduleProblem>, message: String, issues: [Issue], arguments: String?,
      tag: [Comment], sourceLocation: SourceLocation
    ) async {
      let during = Comment(rawValue: "During controlled schedule \(failure.scheduleNumber) (\(failure.series)).")
      let named = arguments.map { Comment(rawValue: "With the arguments \($0).") }
      if case .failuresRecorded = failure.problem, let first = issues.first {
        // The failures are the report: the first carries the rest of it (what was explored,
        // the schedule, the replay line), without a headline that would point at itself.
        var first = first
        first.comments += [during] + (named.map { [$0] } ?? [])
        first.comments.append(Comment(rawValue: message.split(separator: "\n").dropFirst().joined(separator: "\n")))
        first.comments += tag
        await record(first)
        for var issue in issues.dropFirst() {
          issue.comments += [during] + (named.map { [$0] } ?? []) + tag
          await record(issue)
        }
      } else {
        let text = message + (named.map { "\n" + $0.rawValue } ?? "") + tag.map { "\n" + $0.rawValue }.joined()
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
      }
    }

    /// Records `issue` as it was recorded in the body: its kind (an expectation, a caught
    /// error, a known issue) and its place kept. Swift Testing records issues it makes itself
    /// only, so a placeholder is recorded and an issue handler puts `issue` in its place.
    static func record(_ issue: Issue) async {
      guard let test = Test.current else { return }
      let replace = IssueHandlingTrait.compactMapIssues { _ in issue }
      try? await replace.provideScope(for: test, testCase: Test.Case.current) {
        Issue.record(Comment(rawValue: "\(issue)"), sourceLocation: issue.sourceLocation ?? test.sourceLocation)
      }
    }
  }

  extension Trait where Self == ControlledSchedulingTrait {
    /// Runs the test (or each test of the suite) under controlled scheduling: once per schedule
    /// of `series`, stopping at the first failure.
    /// - Parameters:
    ///   - series: The schedules; by default up to 100 of the portfolio series, where seeded
    ///     random schedules and PCT of depths 2 and 3 take turns (a failure says which one found
    ///     it), under ``ScheduleBudget/default``: fewer for a long body, one for a body with no
    ///     scheduling choice, and no more once new schedules stop giving new interleavings. A
    ///     series given here runs every schedule (`.portfolio(1000)` runs 1,000) unless `budget` is
    ///     given too.
    ///   - stepBudget: The most jobs one schedule may run before it fails as a livelock.
    ///   - cancelling: Tasks a schedule may cancel between jobs, at a step it chooses, each at
    ///     most once (see ``CancellationTargets``): `.childrenOfRoot` or `.named("download")`.
    ///     A failure names each cancellation ("task 2 'download' cancelled at step 17"), and its
    ///     schedule replays them. Nil (the default): the schedules cancel nothing.
    ///   - stopAfterSchedulesWithoutNewInterleaving: Stop early, passing, once this many schedules
    ///     in a row gave no new interleaving (distinct trace). Nil (the default): run them all.
    ///   - outsideWorkTimeout: How long a schedule waits, in real time, for work outside the
    ///     harness (a completion handler on a Dispatch queue, a job on a custom executor) when
    ///     nothing else can run, before it calls the run deadlocked; 2 seconds by default. Zero
    ///     reports a deadlock at once (for code with no work outside the harness).
    ///   - reducing: How a failing schedule is reduced to fewer preemptions before it is
    ///     reported (see <doc:ReadingAFailure>); by default at most 100 runs and 5 seconds; nil
    ///     reports the schedule as the series found it.
    ///   - jobSlice: How long one job may run before the run leaves one-job-at-a-time and goes
    ///     on beside it (see ``ControlledScheduling/jobSlice``); 25 milliseconds by default, nil
    ///     keeps every run one-job-at-a-time. `QUEUE_TESTING_JOB_SLICE` overrides it.
    ///   - budget: When the series stops before its count, passing (see ``ScheduleBudget``); by
    ///     default ``ScheduleBudget/default`` for the default series and none for a series given.
    ///     `QUEUE_TESTING_BUDGET` scales it (`10x`), turns it off (`off`) or sets a time (`30s`).
    public static func controlledScheduling(
      _ series: ScheduleSeries? = nil, stepBudget: Int = ControlledExecutor.defaultStepBudget,
      cancelling: CancellationTargets? = nil,
      stopAfterSchedulesWithoutNewInterleaving: Int? = nil,
      outsideWorkTimeout: Duration = ControlledExecutor.defaultOutsideWorkTimeout,
      reducing: ScheduleReducer? = ScheduleReducer(),
      jobSlice: Duration? = ControlledExecutor.defaultJobSlice,
      budget: ScheduleBudget? = nil
    ) -> Self {
      ControlledSchedulingTrait(
        scheduling: ControlledScheduling(
          series, stepBudget: stepBudget, cancelling: cancelling,
          stopAfterSchedulesWithoutNewInterleaving: stopAfterSchedulesWithoutNewInterleaving,
          outsideWorkTimeout: outsideWorkTimeout, reducing: reducing, jobSlice: jobSlice, budget: budget))
    }
  }
#endif
