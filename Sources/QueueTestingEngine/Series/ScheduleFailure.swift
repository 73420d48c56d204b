/// The first schedule of a series that failed, and what it takes to replay it: the one failure
/// type of the harness, for the trait, the XCTest entry point and queue-fuzz alike.
///
/// `Problem` says how the schedule failed: a test's series fails with a ``ScheduleProblem``
/// (`ControlledScheduling.Failure` is `ScheduleFailure<ScheduleProblem>`).
public struct ScheduleFailure<Problem: Equatable & Sendable>: Sendable {
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
  /// Where the run recorded its failures (the expectations that failed), for ``chart``.
  package var failureMarks: [TraceChart.FailureMark] = []
  /// How the failing schedule was reduced to fewer preemptions, when it was; ``run`` is then the
  /// reduced run, which fails the same way and which its schedule replays.
  public var reduction: Reduction?

  /// How a failing schedule was reduced (see ``ScheduleReduction``).
  public typealias Reduction = ScheduleReduction

  /// Creates a failure record.
  public init(problem: Problem, scheduleNumber: Int, series: ScheduleSeries, run: RunResult) {
    self.problem = problem
    self.scheduleNumber = scheduleNumber
    self.series = series
    self.run = run
  }

  /// Whether the body was left unfinished (a deadlock, the step budget, a missing wake-up).
  public var leftBodyUnfinished: Bool {
    run.outcome != .completed
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

extension ScheduleFailure where Problem: SeriesProblem {
  /// The run as a picture: an HTML page with a swimlane chart (see ``TraceChart``), its
  /// preemptions and failures marked.
  package var chart: TraceChart {
    // The title states what failed: the first failing expectation itself, when there is one.
    let what = failureMarks.first?.text ?? String(problem.summary.split(separator: "\n").first ?? "")
    return TraceChart(
      run: run, title: "Controlled schedule \(scheduleNumber) (\(series)) failed: \(what)",
      preemptions: reduction?.preemptions, failures: failureMarks)
  }
}
