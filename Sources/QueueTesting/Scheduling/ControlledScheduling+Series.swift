#if compiler(>=6.3)
  import AsyncQueue
  import Foundation
  import Testing

  extension ControlledScheduling {
    /// Runs `body` once per schedule of ``series`` (afresh each time: create the state under
    /// test inside it) and stops at the first failing schedule.
    ///
    /// This is the entry point for code that wants the report itself: the issues the body
    /// records (a failing `#expect`, a known issue) are not recorded in the calling test. A
    /// failing expectation makes its schedule fail, and the report's ``ScheduleFailure`` says
    /// so (``ScheduleProblem/failuresRecorded(_:)``, with each failure marked in its
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
      let recorder = ScheduleRecorder(ScheduleRecord())
      guard let test = Test.current else {
        let held = runSeries(body, failureCount: nil, recorder: recorder)
        return HeldSeries(report: held.report, cancellation: held.cancellation)
      }
      let outcome = LockedState(HeldSeries(report: Report(schedulesRun: 0, exhausted: nil, failure: nil)))
      // One issue handler around the whole series: it sees the issues recorded by the body's
      // tasks (they inherit it), attributes them to the schedule running at the time and holds
      // them back, so that a failing test gets each failure once (not once per schedule that
      // ran before reduction) with its replay line, and a known issue is one known issue.
      let handler = IssueHandlingTrait.compactMapIssues { issue in
        guard issue.severity >= .error else { return issue }
        let location = issue.sourceLocation.map { "\($0.fileID):\($0.line):\($0.column)" } ?? "?"
        let job = ControlledExecutor.jobInProgress
        recorder.withLock { record in
          guard issue.isFailure else {
            record.knownIssues.append(issue)
            return
          }
          record.failures += 1
          record.failureLocations.append(location)
          record.failureMarks.append(
            TraceChart.FailureMark(step: job?.step ?? 0, task: job?.task ?? 0, text: Self.markText(issue, location)))
          record.issues.append(issue)
        }
        return nil
      }
      try? await handler.provideScope(for: test, testCase: Test.Case.current) {
        let held = runSeries(body, failureCount: nil, recorder: recorder)
        outcome.withLock { $0 = held }
      }
      let held = outcome.withLock { $0 }
      let result = held.report
      // A replay that passes did not reproduce a failure: say so, and why it may not have.
      if series.isReplay, result.failure == nil {
        let outside =
          result.outsideWork.isEmpty
          ? ""
          : " The run took work from outside the harness (\(result.outsideWork)), whose own timing a schedule cannot replay."
        Self.recordWarning("The replayed schedule (\(series)) ran without failing.\(outside)")
      }
      for line in result.unreachedCancellationTargets {
        Self.recordWarning("cancelling: \(cancelling.map(String.init(describing:)) ?? "") over \(series): \(line)")
      }
      return held
    }

    /// Records a warning in the current test; in a child process, also keeps it for the parent,
    /// which records it in the test it runs (the child's event stream leaves warnings out).
    static func recordWarning(_ text: String, sourceLocation: SourceLocation? = nil) {
      if let sourceLocation {
        Issue.record(Comment(rawValue: text), severity: .warning, sourceLocation: sourceLocation)
      } else {
        Issue.record(Comment(rawValue: text), severity: .warning)
      }
      #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        ScheduleOutput.current?.keepWarning(text)
      #endif
    }

    /// The number of the schedule the process is running now (0: none), for the watchdog's
    /// report: runs are one at a time in a process.
    static let scheduleInProgress = LockedState(0)

    /// What one schedule recorded while it ran: taken whole from the ``ScheduleRecorder`` when
    /// its run ends, and handed back with the schedule's judgement.
    struct ScheduleRecord: Sendable {
      /// Failures recorded (by Swift Testing's issue handler; XCTest's are counted apart).
      var failures = 0
      /// Where they were recorded (file:line:column), in order.
      var failureLocations: [String] = []
      /// The same failures, with the step and task that recorded them.
      var failureMarks: [TraceChart.FailureMark] = []
      /// The failures and known issues, held back (see ``HeldSeries``).
      var issues: [Issue] = []
      var knownIssues: [Issue] = []
      /// What the body threw, other than a failing `#require` or a cancellation of its test.
      var thrown: String?
      /// What `Test.cancel` threw, when the body cancelled its test.
      var cancellation: (any Error)?
    }

    /// Where the running schedule's record is kept while the schedule runs: the issue handler and
    /// the body write to it from the run's threads; the series takes it whole, and a new schedule
    /// starts an empty one.
    typealias ScheduleRecorder = LockedState<ScheduleRecord>

    /// Runs the series on the calling thread. `failureCount` reads a test library's count of
    /// recorded failures (XCTest's), compared before and after each schedule.
    @available(ExecutorHooks 1.0, *)
    func runSeries(_ body: @escaping @Sendable () async throws -> Void, failureCount: (() -> Int)?) -> Report {
      runSeries(body, failureCount: failureCount, recorder: ScheduleRecorder(ScheduleRecord())).report
    }

    /// Runs the series on the calling thread, each schedule's record kept in `recorder` while it
    /// runs, and returns its report with the issues to report.
    @available(ExecutorHooks 1.0, *)
    func runSeries(
      _ body: @escaping @Sendable () async throws -> Void,
      failureCount: (() -> Int)?,
      recorder: ScheduleRecorder
    ) -> HeldSeries {
      #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        // No schedule runs once the series is over (a crash or an exit then is not one's).
        defer { CrashNote.schedule.store(0, ordering: .relaxed) }
      #endif
      // Reduction under Swift Testing only: a candidate's XCTest failures could not be kept from
      // the test.
      let runner = SeriesRunner(
        series, cancelling: cancelling,
        stopAfterSchedulesWithoutNewInterleaving: stopAfterSchedulesWithoutNewInterleaving,
        reducing: failureCount == nil ? reducing : nil, budget: budget)
      // What the series keeps of its schedules' records: the first schedule's known issues (a
      // passing series reports them once), the failing schedule's record, and the last one (after
      // a reduction, the replay of its result).
      var firstKnownIssues: [Issue] = []
      var failing: ScheduleRecord?
      var last = ScheduleRecord()
      var cancelledTheTest = false
      var report = runner.run { schedule in
        let (result, judgement, record) = runSchedule(
          schedule, body, failureCount: failureCount, recorder: recorder)
        last = record
        guard !schedule.isReductionCandidate else { return (result, judgement) }
        if schedule.number == 1 { firstKnownIssues = record.knownIssues }
        cancelledTheTest = judgement.endsSeries
        if judgement.problem != nil { failing = record }
        return (result, judgement)
      }
      // A test the body cancelled (`Test.cancel`) neither fails nor is reduced: it is cancelled.
      if cancelledTheTest {
        report.failure = nil
        return HeldSeries(report: report, knownIssues: last.knownIssues, cancellation: last.cancellation)
      }
      guard report.failure != nil else {
        return HeldSeries(report: report, knownIssues: firstKnownIssues, cancellation: last.cancellation)
      }
      // After a reduction the last run replayed its result: its failures are the ones to mark
      // and report. Otherwise they are the failing schedule's.
      let reported = report.failure?.reduction != nil ? last : failing ?? last
      report.failure?.failureMarks = reported.failureMarks
      return HeldSeries(
        report: report, issues: reported.issues, knownIssues: reported.knownIssues, cancellation: last.cancellation)
    }

    /// Runs one schedule of the series (or a reduction's candidate, whose output is not the
    /// series') and judges it, with what it recorded.
    @available(ExecutorHooks 1.0, *)
    private func runSchedule(
      _ schedule: SeriesRunner.ScheduleToRun, _ body: @escaping @Sendable () async throws -> Void,
      failureCount: (() -> Int)?, recorder: ScheduleRecorder
    ) -> (RunResult, SeriesRunner.Judgement<ScheduleProblem>, ScheduleRecord) {
      let number = schedule.isReductionCandidate ? 0 : schedule.number
      if number > 0 {
        Self.scheduleInProgress.withLock { $0 = number }
        #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
          CrashNote.schedule.store(number, ordering: .relaxed)
        #endif
      }
      #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        ScheduleOutput.current?.begin()
        defer { ScheduleOutput.current?.end(scheduleNumber: number) }
      #endif
      recorder.withLock { $0 = ScheduleRecord() }
      let failuresBefore = failureCount?() ?? 0
      let result = ControlledExecutor.runBlocking(
        strategy: schedule.strategy, stepBudget: stepBudget, outsideWorkTimeout: outsideWorkTimeout,
        jobTimeLimit: jobTimeLimit, jobSlice: jobSlice,
        cancelling: schedule.isReductionCandidate ? nil : schedule.cancelling,
        model: runtimeModel
      ) {
        do {
          try await body()
        } catch is ExpectationFailedError {
          // A failing `#require`: its issue is recorded already, and is the schedule's failure.
        } catch {
          if Self.isTestCancellation(error) {
            recorder.withLock { $0.cancellation = error }
          } else {
            recorder.withLock { $0.thrown = "\(error)" }
          }
        }
      }
      let record = recorder.withLock { $0 }
      let failures = record.failures + (failureCount.map { $0() - failuresBefore } ?? 0)
      // The body cancelled its test (`Test.cancel`): the test neither fails nor is reduced, and
      // no more schedules run.
      if record.cancellation != nil {
        return (result, SeriesRunner.Judgement(nil, endsSeries: true), record)
      }
      let problem = ScheduleProblem(result.outcome, thrown: record.thrown, failures: failures)
      return (result, SeriesRunner.Judgement(problem, recordedAt: record.failureLocations), record)
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
  }
#endif
