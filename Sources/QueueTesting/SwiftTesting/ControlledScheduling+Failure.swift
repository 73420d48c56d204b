#if compiler(>=6.3)
  extension ControlledScheduling {
    /// The first schedule of a series that failed, and what it takes to replay it.
    public struct Failure: Sendable {
      /// How a schedule failed.
      public enum Problem: Equatable, Sendable {
        /// This many test failures were recorded while it ran.
        case failuresRecorded(Int)
        /// The body threw this error (described).
        case threw(String)
        /// The run deadlocked.
        case deadlocked(DeadlockReport)
        /// The run exceeded its step budget: a livelock, or a budget set too low.
        case stepBudgetExceeded(steps: Int)
        /// Declared outside wake-ups (by label) never came.
        case outsideWakeUpNeverCame([String])
      }

      /// How it failed.
      public var problem: Problem
      /// Which schedule of the series, from 1.
      public var scheduleNumber: Int
      /// The series it belongs to.
      public var series: ScheduleSeries
      /// The run: its schedule replays it, its trace shows what happened.
      public var run: RunResult
      /// The distinct interleavings the series saw up to and including this schedule.
      public var coverage = TraceCoverage()

      /// Whether the body was left unfinished (a deadlock, the step budget, a missing wake-up).
      public var leftBodyUnfinished: Bool {
        run.outcome != .completed
      }

      /// The failure for a person: which schedule, what went wrong, and how to replay just it.
      /// - Parameter testID: The test's full identifier, for the replay line's `swift test
      ///   --filter` (see ``ControlledScheduling/replayCommand(testID:)``); nil: no command.
      public func message(testID: String? = nil) -> String {
        let what: String =
          switch problem {
          case .failuresRecorded(let count): "\(count) failure\(count == 1 ? "" : "s") recorded (see above)"
          case .threw(let error): "the body threw \(error)"
          case .deadlocked(let report): "the run deadlocked.\n\(report)"
          case .stepBudgetExceeded(let steps):
            "the run exceeded its step budget after \(steps) steps (a livelock, or a budget set too low)"
          case .outsideWakeUpNeverCame(let labels):
            "declared outside wake-ups never came: \(labels.joined(separator: ", "))"
          }
        let filter = testID.map { " " + ControlledScheduling.replayCommand(testID: $0) } ?? ""
        // A portfolio takes turns between strategies: say which one found the failure.
        let foundBy = series.kind == .portfolio ? run.strategySummary.map { "\nFound by: \($0)" } ?? "" : ""
        let explored =
          "\nExplored: \(coverage.distinctTraces) distinct interleaving(s) in \(coverage.runs) schedule(s)"
        let cancelled = run.cancellationLines.map { "\nCancelled by the schedule: \($0)" }.joined()
        let outside =
          run.outsideWork.isEmpty
          ? ""
          : "\nOutside the harness: \(run.outsideWork); that work ran on real threads, so the schedule "
            + "below replays this run (it records when each job came back) but a seed may not"
        return """
          Controlled schedule \(scheduleNumber) failed (\(series)): \(what)\(foundBy)\(cancelled)\(outside)\(explored)
          Schedule: \(run.schedule)
          Replay it alone: \(ControlledScheduling.scheduleVariable)='\(run.schedule)'\(filter)
          """
      }

      /// The run's trace, one column per task (its last `limit` events), for an attachment or a log.
      public func traceText(limit: Int = 2_000) -> String {
        """
        Controlled schedule \(scheduleNumber) (\(series)), schedule \(run.schedule)
        \(run.steps) steps, trace hash \(String(run.trace.hash, radix: 16)); the last \(limit) events at most:

        \(run.trace.columnView(limit: limit))
        """
      }
    }
  }
#endif
