#if compiler(>=6.3)
  import AsyncQueue
  import Foundation
  import Testing

  /// Runs a test body under a series of controlled schedules and stops at the first one that
  /// fails: what the `.controlledScheduling` trait and the XCTest entry point do for each test.
  ///
  /// A schedule fails when the body throws, when a test failure is recorded while it runs (an
  /// `#expect`, an `XCTAssert`, one of QueueTesting's ordering expectations), or when its run
  /// does not complete (a deadlock, the step budget, a declared outside wake-up that never came).
  /// The ``Failure`` says which schedule it was and how to replay it alone.
  ///
  /// Two environment variables adjust a run without editing the test (see
  /// ``resolved(environment:)``): `QUEUE_TESTING_SCHEDULE` replays one schedule (the text a
  /// failure prints) and `QUEUE_TESTING_SEED` replaces the seed of a random or PCT series.
  public struct ControlledScheduling: Equatable, Sendable {
    /// The schedules to run.
    public var series: ScheduleSeries
    /// The most jobs one schedule may run; past it the schedule fails as a livelock.
    public var stepBudget: Int
    /// The tasks a schedule may cancel between jobs (nil: none); see ``CancellationTargets``.
    /// Random, PCT and portfolio series choose when; a replay repeats the schedule's own.
    public var cancelling: CancellationTargets?
    /// Stops the series, passing, once this many schedules in a row gave no interleaving the
    /// series had not seen (nil, the default: run every schedule). A body with few interleavings
    /// then stops early instead of repeating them; ``SeriesReport/stoppedUnchanged`` says it did.
    public var stopAfterSchedulesWithoutNewInterleaving: Int?
    /// How long a schedule waits, in real time, for work outside the harness (a completion
    /// handler on a Dispatch queue, a job on a custom executor) when nothing it controls can
    /// run; see ``ControlledExecutor/defaultOutsideWorkTimeout``. Zero: never wait, and report a
    /// deadlock at once (for code with no work outside the harness).
    public var outsideWorkTimeout: Duration

    /// How a failing schedule is reduced to fewer preemptions before it is reported (see
    /// ``ScheduleReducer``); nil: not reduced. Under Swift Testing only: the issues a candidate
    /// run records are compared with the failing schedule's and not reported, which XCTest does not
    /// allow. A replay (``scheduleVariable``) is not reduced either: it reports the schedule given.
    public var reducing: ScheduleReducer?

    /// How long one job of a schedule may run before the schedule fails as stuck (see
    /// ``StuckJob``): the run returns, naming the job and the blocking call its thread is in,
    /// instead of hanging. Nil: no limit (the calling thread drives each run). Under the
    /// `.controlledScheduling` trait, the test's `.timeLimit` or 60 seconds.
    public var jobTimeLimit: Duration?

    /// The file a replay's schedule was read from (see ``scheduleFileVariable``), so that its
    /// lines name the file rather than spell out a long schedule.
    var replayedFile: String?

    /// The environment variable that replays one schedule, in ``Schedule``'s text form.
    public static let scheduleVariable = "QUEUE_TESTING_SCHEDULE"
    /// The environment variable that replays one schedule saved in a file (the path a failure
    /// prints when its schedule is too long to spell out on a command line).
    public static let scheduleFileVariable = "QUEUE_TESTING_SCHEDULE_FILE"
    /// The environment variable that replaces the seed of a random or PCT series.
    public static let seedVariable = "QUEUE_TESTING_SEED"
    /// The environment variable that picks one case of a parameterized test by its arguments, in
    /// the form a failure's replay line gives them (`value: 20`); the test's other cases are
    /// cancelled, not run.
    public static let argumentsVariable = "QUEUE_TESTING_ARGUMENTS"

    /// Creates a configuration; by default 100 schedules of the portfolio series (random and PCT
    /// of depths 1 to 3 in turn), with no cancellation choices.
    public init(
      _ series: ScheduleSeries = .portfolio(), stepBudget: Int = ControlledExecutor.defaultStepBudget,
      cancelling: CancellationTargets? = nil,
      stopAfterSchedulesWithoutNewInterleaving: Int? = nil,
      outsideWorkTimeout: Duration = ControlledExecutor.defaultOutsideWorkTimeout,
      reducing: ScheduleReducer? = ScheduleReducer(),
      jobTimeLimit: Duration? = ControlledExecutor.defaultJobTimeLimit
    ) {
      self.reducing = reducing
      self.jobTimeLimit = jobTimeLimit
      self.series = series
      self.stepBudget = stepBudget
      self.cancelling = cancelling
      self.stopAfterSchedulesWithoutNewInterleaving = stopAfterSchedulesWithoutNewInterleaving
      self.outsideWorkTimeout = outsideWorkTimeout
    }

    /// This configuration as `environment` adjusts it: ``scheduleVariable`` makes it a replay of
    /// that one schedule, and so does ``scheduleFileVariable`` with the schedule in a file (a
    /// failure prints that form when its schedule is long); ``seedVariable`` (a decimal `UInt64`)
    /// replaces the seed.
    /// - Throws: ``ControlledSchedulingError`` naming the variable and what was expected, or
    ///   saying that an exhaustive series cannot explore cancellation choices.
    public func resolved(environment: [String: String]) throws(ControlledSchedulingError) -> ControlledScheduling {
      if case .exhaustive = series.kind, let cancelling {
        throw ControlledSchedulingError(
          message: """
            cancelling: \(cancelling) needs a random, PCT or portfolio series: an exhaustive search \
            does not explore cancellation choices, and would call a space exhausted that it was not
            """)
      }
      var resolved = self
      if let text = environment[Self.seedVariable] {
        guard let seed = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
          throw ControlledSchedulingError(
            message: "\(Self.seedVariable)=\(text): expected a decimal number from 0 to \(UInt64.max)")
        }
        resolved.series.seed = seed
      }
      if let path = environment[Self.scheduleFileVariable] {
        if environment[Self.scheduleVariable] != nil {
          throw ControlledSchedulingError(
            message: "\(Self.scheduleVariable) and \(Self.scheduleFileVariable) are both set: set one of them")
        }
        resolved.series = .replay(try ScheduleFile.read(path, variable: Self.scheduleFileVariable))
        resolved.replayedFile = path
      }
      if let text = environment[Self.scheduleVariable] {
        do {
          resolved.series = .replay(try Schedule(parsing: text.trimmingCharacters(in: .whitespaces)))
        } catch {
          throw ControlledSchedulingError(message: "\(Self.scheduleVariable)=\(text): \(error.message)")
        }
      }
      return resolved
    }

    /// How to run this series up to a given schedule again, for the test `testID` (see
    /// ``replayCommand(testID:)``): the same seed replays a random, PCT or portfolio series
    /// schedule by schedule.
    func rerunLine(testID: String, arguments: String? = nil) -> String {
      let command = Self.replayCommand(testID: testID, arguments: arguments)
      switch series.kind {
      case .random, .pct, .portfolio:
        return "\(Self.seedVariable)=\(series.seed) \(command)"
      case .replay(let schedule):
        if let replayedFile { return "\(Self.scheduleFileVariable)='\(replayedFile)' \(command)" }
        return "\(Self.scheduleVariable)='\(schedule)' \(command)"
      case .exhaustive:
        return command
      }
    }

    /// The `swift test` command that runs the test `testID` and nothing else, for a shell.
    ///
    /// `testID` is the test's full identifier: `String(describing: Test.current!.id)` under
    /// Swift Testing, `Module.Class/method` under XCTest. `--filter` takes a regular expression
    /// that may match anywhere in an identifier, so the identifier is escaped and anchored:
    /// neither `nameFixed` nor a test of the same name in another suite runs beside it.
    public static func replayCommand(testID: String) -> String {
      replayCommand(testID: testID, arguments: nil)
    }

    /// The command that runs one case of a parameterized test (`arguments`: the case's
    /// arguments, as ``argumentsVariable`` takes them), or the whole test when nil.
    static func replayCommand(testID: String, arguments: String?) -> String {
      let pattern = "^" + NSRegularExpression.escapedPattern(for: testID) + "$"
      let selection = arguments.map { "\(argumentsVariable)=\(shellQuoted($0)) " } ?? ""
      return "\(selection)swift test --filter \(shellQuoted(pattern))"
    }

    /// `text` in single quotes, for a POSIX shell.
    static func shellQuoted(_ text: String) -> String {
      "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The failure a test under controlled scheduling gets on a system older than controlled runs
    /// need; its body is not run (running it uncontrolled would pass without exploring anything).
    public static func unsupportedSystemMessage(testName: String?) -> String {
      """
      \(testName ?? "This test") did not run: controlled scheduling needs macOS 26.4, iOS 26.4, \
      watchOS 26.4, tvOS 26.4 or visionOS 26.4 (the Swift 6.3 runtime's executor hooks), and this \
      system is older. The body was not run uncontrolled.
      """
    }

    /// Set by tests of the entry points to take the path an older system takes.
    @TaskLocal static var simulatesUnsupportedSystem = false

    /// What happened over the series (the engine's ``SeriesReport``).
    public typealias Report = SeriesReport

    /// The first schedule of a series that failed (the engine's ``ScheduleFailure``).
    public typealias Failure = ScheduleFailure

    /// Runs `body` once per schedule of ``series`` (afresh each time: create the state under
    /// test inside it) and stops at the first failing schedule.
    ///
    /// This is the entry point for code that wants the report itself: the issues the body
    /// records (a failing `#expect`, a known issue) are not recorded in the calling test. A
    /// failing expectation makes its schedule fail, and the report's ``ScheduleFailure`` says
    /// so (``ScheduleFailure/Problem/failuresRecorded(_:)``, with each failure marked in its
    /// chart); check the report, as in `#expect(report.failure == nil)`. The trait and the XCTest
    /// entry point record a failing schedule's issues in the test for you. Warnings are recorded
    /// as the body records them; a replayed schedule that passes, and a cancellation target no
    /// schedule reached, add a warning of their own.
    ///
    /// The calling thread drives each run and is busy meanwhile. A body whose run does not
    /// complete is abandoned (it never resumes; see ``ControlledExecutor``).
    /// Controlled runs need the Swift 6.3 runtime's executor hooks, which Apple platforms ship
    /// from the 26.4 releases on; the trait and the XCTest entry point check this for you and
    /// fail the test with ``unsupportedSystemMessage(testName:)`` on an older system.
    @available(ExecutorHooks 1.0, *)
    public func run(_ body: @escaping @Sendable () async throws -> Void) async -> Report {
      await runHoldingIssues(body).report
    }

    /// What a series did, with the issues its body recorded held back for the caller.
    struct HeldSeries: Sendable {
      var report: Report
      /// The failures the reported schedule recorded, in order: the failing schedule's (its
      /// reduced run's, when reduction found one); empty when the series passed.
      var issues: [Issue] = []
      /// The known issues (`withKnownIssue`) of the reported schedule: the failing one, or the
      /// first schedule when every schedule passed, so that a known issue is recorded once.
      var knownIssues: [Issue] = []
      /// What `Test.cancel` threw, when the body cancelled its test: the series stopped there.
      var cancellation: (any Error)?
    }

    /// Runs the series as ``run(_:)`` does and returns the issues the body recorded, unrecorded:
    /// the trait records them once, with the failure's report.
    @available(ExecutorHooks 1.0, *)
    func runHoldingIssues(_ body: @escaping @Sendable () async throws -> Void) async -> HeldSeries {
      let progress = LockedState(ScheduleProgress())
      guard let test = Test.current else {
        let report = runSeries(body, failureCount: nil, progress: progress)
        return progress.withLock { HeldSeries(report: report, cancellation: $0.cancellation) }
      }
      let report = LockedState(Report(schedulesRun: 0, exhausted: nil, failure: nil))
      // One issue handler around the whole series: it sees the issues recorded by the body's
      // tasks (they inherit it), attributes them to the schedule running at the time and holds
      // them back, so that a failing test gets each failure once (not once per schedule that
      // ran before reduction) with its replay line, and a known issue is one known issue.
      let handler = IssueHandlingTrait.compactMapIssues { issue in
        guard issue.severity >= .error else { return issue }
        let location = issue.sourceLocation.map { "\($0.fileID):\($0.line):\($0.column)" } ?? "?"
        let job = ControlledExecutor.jobInProgress
        progress.withLock { progress in
          guard issue.isFailure else {
            progress.knownIssues.append(issue)
            return
          }
          progress.failures += 1
          progress.failureLocations.append(location)
          progress.failureMarks.append(
            TraceChart.FailureMark(step: job?.step ?? 0, task: job?.task ?? 0, text: Self.markText(issue, location)))
          progress.issues.append(issue)
        }
        return nil
      }
      try? await handler.provideScope(for: test, testCase: Test.Case.current) {
        let result = runSeries(body, failureCount: nil, progress: progress)
        report.withLock { $0 = result }
      }
      let result = report.withLock { $0 }
      // A replay that passes did not reproduce a failure: say so, and why it may not have.
      if Self.isReplay(series), result.failure == nil {
        let outside =
          result.outsideWork.isEmpty
          ? ""
          : " The run took work from outside the harness (\(result.outsideWork)), whose own timing a schedule cannot replay."
        Issue.record(
          Comment(rawValue: "The replayed schedule (\(series)) ran without failing.\(outside)"), severity: .warning)
      }
      for line in result.unreachedCancellationTargets {
        Issue.record(
          Comment(rawValue: "cancelling: \(cancelling.map(String.init(describing:)) ?? "") over \(series): \(line)"),
          severity: .warning)
      }
      return progress.withLock {
        HeldSeries(
          report: result, issues: $0.reportedIssues, knownIssues: $0.reportedKnownIssues,
          cancellation: $0.cancellation)
      }
    }

    /// The number of the schedule the process is running now (0: none), for the watchdog's
    /// report: runs are one at a time in a process.
    static let scheduleInProgress = LockedState(0)

    /// The schedule running and the failures recorded during it.
    struct ScheduleProgress: Sendable {
      var number = 0
      var failures = 0
      /// Where the failures recorded during the schedule were (file:line:column), in order.
      var failureLocations: [String] = []
      /// The same failures, with the step and task that recorded them.
      var failureMarks: [TraceChart.FailureMark] = []
      /// Whether the run is a reduction's candidate: its issues are noted, not reported.
      var reducing = false
      /// The failures and known issues recorded during the schedule, held back (see
      /// ``HeldSeries``).
      var issues: [Issue] = []
      var knownIssues: [Issue] = []
      /// The known issues of the series' first schedule.
      var firstKnownIssues: [Issue] = []
      /// What the series reports (see ``HeldSeries``), set when it ends.
      var reportedIssues: [Issue] = []
      var reportedKnownIssues: [Issue] = []
      var cancellation: (any Error)?
    }

    /// Runs the series on the calling thread. `failureCount` reads a test library's count of
    /// recorded failures (XCTest's), compared before and after each schedule.
    @available(ExecutorHooks 1.0, *)
    func runSeries(
      _ body: @escaping @Sendable () async throws -> Void,
      failureCount: (() -> Int)?,
      progress: LockedState<ScheduleProgress> = LockedState(ScheduleProgress())
    ) -> Report {
      #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        // No schedule runs once the series is over (a crash or an exit then is not one's).
        defer { CrashNote.schedule.store(0, ordering: .relaxed) }
      #endif
      let thrown = LockedState<String?>(nil)
      // Runs one schedule of the body and judges it.
      func runOnce(
        _ strategy: any ScheduleStrategy & Sendable, cancelling: CancellationTargets?
      ) -> (RunResult, Failure.Problem?) {
        thrown.withLock { $0 = nil }
        progress.withLock {
          $0.failureLocations = []
          $0.failureMarks = []
          $0.issues = []
          $0.knownIssues = []
          $0.cancellation = nil
        }
        let failuresBefore = failureCount?() ?? 0
        let result = ControlledExecutor.runBlocking(
          strategy: strategy, stepBudget: stepBudget, outsideWorkTimeout: outsideWorkTimeout,
          jobTimeLimit: jobTimeLimit, cancelling: cancelling
        ) {
          do {
            try await body()
          } catch is ExpectationFailedError {
            // A failing `#require`: its issue is recorded already, and is the schedule's failure.
          } catch {
            if Self.isTestCancellation(error) {
              progress.withLock { $0.cancellation = error }
            } else {
              thrown.withLock { $0 = "\(error)" }
            }
          }
        }
        let failures = progress.withLock(\.failures) + (failureCount.map { $0() - failuresBefore } ?? 0)
        let problem: Failure.Problem? =
          switch result.outcome {
          case .deadlocked(let deadlock): .deadlocked(deadlock)
          case .stepBudgetExceeded(let steps): .stepBudgetExceeded(steps: steps)
          case .outsideWakeUpNeverCame(let labels): .outsideWakeUpNeverCame(labels)
          case .stuck(let job): .stuck(job)
          case .foreignExecutorHook(let message): .foreignExecutorHook(message)
          case .completed:
            if progress.withLock({ $0.cancellation != nil }) {
              // The body cancelled its test: the series stops here (see `runSeries`).
              .threw("the test was cancelled")
            } else if let error = thrown.withLock({ $0 }) {
              .threw(error)
            } else if failures > 0 {
              .failuresRecorded(failures)
            } else {
              nil
            }
          }
        return (result, problem)
      }
      let runner = SeriesRunner(
        series, cancelling: cancelling,
        stopAfterSchedulesWithoutNewInterleaving: stopAfterSchedulesWithoutNewInterleaving)
      var report = runner.run { schedule in
        progress.withLock { progress in
          let firstKnownIssues = progress.firstKnownIssues
          progress = ScheduleProgress(number: schedule.number, failures: 0)
          progress.firstKnownIssues = firstKnownIssues
        }
        Self.scheduleInProgress.withLock { $0 = schedule.number }
        #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
          CrashNote.schedule.store(schedule.number, ordering: .relaxed)
        #endif
        #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
          ScheduleOutput.current?.begin()
          defer { ScheduleOutput.current?.end(scheduleNumber: schedule.number) }
        #endif
        let judged = runOnce(schedule.strategy, cancelling: schedule.cancelling)
        if schedule.number == 1 { progress.withLock { $0.firstKnownIssues = $0.knownIssues } }
        return judged
      }
      // A test the body cancelled (`Test.cancel`) neither fails nor is reduced: it is cancelled.
      if progress.withLock({ $0.cancellation != nil }) {
        report.failure = nil
        progress.withLock { $0.reportedKnownIssues = $0.knownIssues }
        return report
      }
      report.failure?.failureMarks = progress.withLock(\.failureMarks)
      progress.withLock { progress in
        progress.reportedIssues = report.failure == nil ? [] : progress.issues
        progress.reportedKnownIssues = report.failure == nil ? progress.firstKnownIssues : progress.knownIssues
      }
      // Reduce the failing schedule to fewer preemptions: under Swift Testing only (a
      // candidate's XCTest failures could not be kept from the test), never for a replay.
      // Nor a run that left a job behind, or lost jobs to another tool's hook: no other run can
      // start, or none would be the harness's.
      if let reducing, failureCount == nil, let failure = report.failure, !Self.isReplay(series),
        Self.canRunAgain(after: failure.problem)
      {
        let identity = Self.identity(of: failure.problem, at: progress.withLock(\.failureLocations))
        progress.withLock { $0.reducing = true }
        var lastProblem: Failure.Problem?
        let reduced = reducing.reduce(failure.run) { strategy in
          progress.withLock { $0.failures = 0 }
          #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
            ScheduleOutput.current?.begin()
            defer { ScheduleOutput.current?.end(scheduleNumber: 0) }
          #endif
          let (run, problem) = runOnce(strategy, cancelling: nil)
          lastProblem = problem
          let locations = progress.withLock(\.failureLocations)
          return (run, problem.map { Self.identity(of: $0, at: locations) } == identity)
        }
        if let reduced {
          report.failure?.run = reduced.run
          // The reducer's last run replayed the result: its problem (a deadlock's report, with
          // the reduced run's steps and tasks) is the one the schedule gives again.
          if let lastProblem { report.failure?.problem = lastProblem }
          // Which strategy found the failure is the series' story, not the reduction's.
          report.failure?.run.strategySummary = failure.run.strategySummary
          // The reducer's last run replayed the result: its failures are the ones to mark and report.
          report.failure?.failureMarks = progress.withLock(\.failureMarks)
          progress.withLock { progress in
            progress.reportedIssues = progress.issues
            progress.reportedKnownIssues = progress.knownIssues
          }
          report.failure?.reduction = ScheduleFailure.Reduction(
            preemptions: reduced.preemptions, originalPreemptions: reduced.originalPreemptions,
            originalSchedule: failure.run.schedule, runs: reduced.runs, budgetExhausted: reduced.budgetExhausted)
        }
        progress.withLock { $0.reducing = false }
      }
      return report
    }

    /// Whether another run of the body can tell anything after a run that failed with `problem`.
    static func canRunAgain(after problem: Failure.Problem) -> Bool {
      switch problem {
      case .stuck, .foreignExecutorHook: false
      default: true
      }
    }

    /// Whether `error` is what `Test.cancel(_:)` throws to cancel the running test (a type of
    /// Swift Testing's own, which it does not make public).
    static func isTestCancellation(_ error: any Error) -> Bool {
      String(reflecting: type(of: error)) == "Testing.SkipInfo"
    }

    /// What a failure mark says of `issue`: what failed, its comments, and where.
    static func markText(_ issue: Issue, _ location: String) -> String {
      let comments = issue.comments.map(\.rawValue).filter { !$0.isEmpty }
      return "\(issue.kind)" + (comments.isEmpty ? "" : ": " + comments.joined(separator: "; ")) + " (\(location))"
    }

    /// Whether `series` replays one given schedule.
    static func isReplay(_ series: ScheduleSeries) -> Bool {
      if case .replay = series.kind { return true }
      return false
    }

    /// What makes two failures of a body the same failure, for a reduction: the same kind of
    /// problem, recorded at the same places (or the same error, or the same missing wake-ups).
    static func identity(of problem: Failure.Problem, at locations: [String]) -> [String] {
      switch problem {
      case .failuresRecorded: ["failures"] + locations
      case .threw(let error): ["threw", error]
      case .deadlocked: ["deadlocked"]
      case .stepBudgetExceeded: ["step budget"]
      case .outsideWakeUpNeverCame(let labels): ["outside wake-up"] + labels
      case .stuck: ["stuck"]
      case .foreignExecutorHook(let message): ["foreign hook", message]
      case .guarantees, .unexpectedOutcome, .nondeterminism: [problem.signature]
      }
    }
  }
#endif
