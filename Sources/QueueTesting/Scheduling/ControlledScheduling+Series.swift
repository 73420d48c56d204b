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
      return progress.withLock {
        HeldSeries(
          report: result, issues: $0.reportedIssues, knownIssues: $0.reportedKnownIssues,
          cancellation: $0.cancellation)
      }
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
      /// The failing schedule's failure marks, issues and known issues (a reduction's candidates
      /// record others after it).
      var failing: (marks: [TraceChart.FailureMark], issues: [Issue], knownIssues: [Issue]) = ([], [], [])
      var cancellation: (any Error)?
      /// Whether a schedule of the series ended it by cancelling its test.
      var cancelledTheTest = false
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
      ) -> (RunResult, SeriesRunner.Judgement<ScheduleProblem>) {
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
          jobTimeLimit: jobTimeLimit, jobSlice: jobSlice, cancelling: cancelling, model: runtimeModel
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
        let problem: ScheduleProblem? =
          switch result.outcome {
          case .deadlocked(let deadlock): .deadlocked(deadlock)
          case .stepBudgetExceeded(let steps): .stepBudgetExceeded(steps: steps)
          case .outsideWakeUpNeverCame(let labels): .outsideWakeUpNeverCame(labels)
          case .stuck(let job): .stuck(job)
          case .foreignExecutorHook(let message): .foreignExecutorHook(message)
          case .completed:
            if let error = thrown.withLock({ $0 }) {
              .threw(error)
            } else if failures > 0 {
              .failuresRecorded(failures)
            } else {
              nil
            }
          }
        // The body cancelled its test (`Test.cancel`): the test neither fails nor is reduced, and
        // no more schedules run.
        if progress.withLock({ $0.cancellation != nil }) {
          return (result, SeriesRunner.Judgement(nil, endsSeries: true))
        }
        return (result, SeriesRunner.Judgement(problem, recordedAt: progress.withLock(\.failureLocations)))
      }
      // Reduction under Swift Testing only: a candidate's XCTest failures could not be kept from
      // the test.
      let runner = SeriesRunner(
        series, cancelling: cancelling,
        stopAfterSchedulesWithoutNewInterleaving: stopAfterSchedulesWithoutNewInterleaving,
        reducing: failureCount == nil ? reducing : nil, budget: budget)
      var report = runner.run { schedule in
        guard !schedule.isReductionCandidate else {
          // A candidate's issues are noted, not reported.
          progress.withLock {
            $0.failures = 0
            $0.reducing = true
          }
          defer { progress.withLock { $0.reducing = false } }
          #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
            ScheduleOutput.current?.begin()
            defer { ScheduleOutput.current?.end(scheduleNumber: 0) }
          #endif
          return runOnce(schedule.strategy, cancelling: nil)
        }
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
        progress.withLock { progress in
          if schedule.number == 1 { progress.firstKnownIssues = progress.knownIssues }
          progress.cancelledTheTest = judged.1.endsSeries
          // What the failing schedule recorded, kept in case no reduction replaces it.
          if judged.1.problem != nil {
            progress.failing = (progress.failureMarks, progress.issues, progress.knownIssues)
          }
        }
        return judged
      }
      // A test the body cancelled (`Test.cancel`) neither fails nor is reduced: it is cancelled.
      if progress.withLock(\.cancelledTheTest) {
        report.failure = nil
        progress.withLock { $0.reportedKnownIssues = $0.knownIssues }
        return report
      }
      progress.withLock { progress in
        guard report.failure != nil else {
          progress.reportedIssues = []
          progress.reportedKnownIssues = progress.firstKnownIssues
          return
        }
        // After a reduction the last run replayed its result: its failures are the ones to mark
        // and report. Otherwise they are the failing schedule's.
        let (marks, issues, knownIssues) =
          report.failure?.reduction != nil
          ? (progress.failureMarks, progress.issues, progress.knownIssues) : progress.failing
        report.failure?.failureMarks = marks
        progress.reportedIssues = issues
        progress.reportedKnownIssues = knownIssues
      }
      return report
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
