#if compiler(>=6.3) && !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import AsyncQueue
  import Foundation
  import Testing

  // Recording in the parent what a child process said and how it ended.
  extension ChildProcessIsolation {
    /// Records in this process what the child did: each of its issues at its place, and a
    /// plain statement when it ended without finishing.
    ///
    /// `scheduling` (the test's, as the environment adjusts it) and `testID` say how to run the
    /// series to a schedule that crashed.
    ///
    /// For a case of a parameterized test (`arguments`), only the issues the child tagged with
    /// that case are recorded; `recordsWhatNoCaseOwns` (the case that started the child) records
    /// the rest: untagged issues, a crash, a stuck job, a verdict.
    static func record(
      _ outcome: Outcome, testName: String, sourceLocation: SourceLocation, scheduling: ControlledScheduling? = nil,
      testID: String? = nil, arguments: String? = nil, caseName: String? = nil, recordsWhatNoCaseOwns: Bool = true
    ) throws {
      // A case that cancelled itself in the child is cancelled here, with what it said.
      let caseCancellation = caseName.flatMap { outcome.caseCancellations[$0] }
      if let testID, let kept = ScheduleOutput.take(testID: testID, arguments: arguments) {
        ScheduleOutput.show(kept)
      }
      if let testID {
        for warning in ScheduleOutput.takeWarnings(testID: testID, arguments: arguments) {
          Issue.record(Comment(rawValue: warning), severity: .warning, sourceLocation: sourceLocation)
        }
      }
      let owned = outcome.issues.filter { issue in
        issue.caseArguments.map { $0 == arguments } ?? recordsWhatNoCaseOwns
      }
      // A crash, a stuck job or a verdict belongs to the case the child was running, when it said.
      let runningCase = testID.flatMap { outcome.runningCase(of: $0) }
      let ownsTheEnd = runningCase.map { $0 == arguments } ?? recordsWhatNoCaseOwns
      guard ownsTheEnd else {
        try record(issues: owned, cancellation: caseCancellation)
        // A child that ended in another case before this one started never ran this one.
        if let arguments, let testID, let culprit = runningCase, !outcome.startedCases(of: testID).contains(arguments) {
          Issue.record(
            Comment(
              rawValue: """
                \(testName) with the arguments \(arguments) did not run: the child process running the test's \
                cases ended in the case \(culprit) before it reached this one.
                """), sourceLocation: sourceLocation)
        }
        return
      }
      if let running = outcome.runningOutput {
        let notes = [CrashNote.marker, CrashNote.exitMarker, JobWatchdog.reportMarker]
        let lines = running.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
          !notes.contains { line.hasPrefix($0) }
        }
        let text = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty {
          ScheduleOutput.show("\(testName) printed, during the schedule it did not finish:\n\(text)\n")
        }
      }
      try record(issues: owned, cancellation: caseCancellation ?? outcome.cancellation)
      if outcome.exitedDuringTest {
        var text = "\(testName) ended the process running it: the code under test called exit(\(outcome.status))"
        if let schedule = CrashNote.schedule(in: outcome.standardError), schedule > 0 {
          text += " during controlled schedule \(schedule)"
          text += rerunClause(scheduling: scheduling, testID: testID, arguments: arguments) ?? ""
        }
        text += ". The test did not finish, so it cannot pass; under the trait it ran in a child process, and"
        text += " the rest of the suite ran on."
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
        return
      }
      if recordVerdict(outcome.parentVerdict, testName: testName, sourceLocation: sourceLocation) { return }
      recordEnd(
        outcome, testName: testName, sourceLocation: sourceLocation, scheduling: scheduling, testID: testID,
        arguments: arguments)
    }

    /// Records why the parent ended the child, if it did (true).
    fileprivate static func recordVerdict(
      _ verdict: ChildMonitor.Verdict, testName: String, sourceLocation: SourceLocation
    ) -> Bool {
      switch verdict {
      case .running:
        return false
      case .exceededTimeLimit(let limit):
        Issue.record(
          Comment(
            rawValue: """
              \(testName) did not finish within its time limit (\(limit)): the child process running it was ended \
              (the rest of the suite ran on).
              """), sourceLocation: sourceLocation)
        return true
      case .silent(let silence):
        Issue.record(
          Comment(
            rawValue: """
              \(testName) stopped responding: the child process running it showed no sign of life for \
              \(silence.components.seconds) s (its watchdog, which ends a job that runs too long, was not running: \
              the process was stopped or wedged), so it was ended (the rest of the suite ran on).
              """), sourceLocation: sourceLocation)
        return true
      }
    }

    /// Records how the child ended, when its issues do not say it all.
    fileprivate static func recordEnd(
      _ outcome: Outcome, testName: String, sourceLocation: SourceLocation, scheduling: ControlledScheduling?,
      testID: String?, arguments: String?
    ) {
      switch (outcome.status, outcome.endedBySignal) {
      case (0, false):
        return
      case (JobWatchdog.stuckJobExitStatus, false):
        let report = outcome.standardError.split(separator: "\n").first { $0.hasPrefix(JobWatchdog.reportMarker) }
        Issue.record(
          Comment(
            rawValue: report.map { String($0.dropFirst(JobWatchdog.reportMarker.count)) }
              ?? "\(testName) is stuck: one of its jobs did not return, and the child process running it was ended."),
          sourceLocation: sourceLocation)
      case (1, false) where !outcome.issues.isEmpty:
        // An ordinary failure: its issues say it all.
        return
      case (ControlledSchedulingTrait.abandonedTestExitStatus, false):
        var text = "\(testName) did not finish: a schedule left its body unable to finish, so the child process that"
        text += " ran its schedules was ended (the rest of the suite ran on)."
        if !outcome.issues.contains(where: { $0.text.contains("Controlled schedule") }) {
          // The child ended before its issue reached the event stream: its report is on stderr.
          text += "\n" + outcome.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
      default:
        Issue.record(
          Comment(
            rawValue: crashText(
              outcome, testName: testName, scheduling: scheduling, testID: testID, arguments: arguments)),
          sourceLocation: sourceLocation)
      }
    }

    /// Records the child's `issues` here (known ones as known), then its cancellation.
    fileprivate static func record(issues: [ChildIssue], cancellation: ChildIssue?) throws {
      // The test's time limit binds here too, and Swift Testing records its overrun here: the
      // child's record of the same overrun would count it twice.
      for issue in issues where !issue.text.hasPrefix(timeLimitIssuePrefix) {
        if issue.isKnown {
          // Known in the child, known here: the test passes "with 1 known issue", as in place.
          withKnownIssue {
            Issue.record(Comment(rawValue: issue.text), sourceLocation: issue.sourceLocation)
          }
        } else {
          Issue.record(Comment(rawValue: issue.text), sourceLocation: issue.sourceLocation)
        }
      }
      if let cancellation {
        try Test.cancel(
          cancellation.text.isEmpty ? nil : Comment(rawValue: cancellation.text),
          sourceLocation: cancellation.sourceLocation)
      }
    }

  }
#endif
