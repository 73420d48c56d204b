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

  /// A failing schedule reduced to fewer preemptions (see ``ScheduleReducer``).
  public struct Reduction: Sendable {
    /// The reduced run's preemptions, in order.
    public var preemptions: [Preemption]
    /// How many preemptions the failing schedule had.
    public var originalPreemptions: Int
    /// The failing schedule as the series found it.
    public var originalSchedule: Schedule
    /// The runs the reduction made.
    public var runs: Int
    /// Whether its budget ran out before it tried every removal.
    public var budgetExhausted: Bool

    /// Creates a record.
    public init(
      preemptions: [Preemption], originalPreemptions: Int, originalSchedule: Schedule, runs: Int,
      budgetExhausted: Bool
    ) {
      self.preemptions = preemptions
      self.originalPreemptions = originalPreemptions
      self.originalSchedule = originalSchedule
      self.runs = runs
      self.budgetExhausted = budgetExhausted
    }

    /// `1 preemption (step 14: task 2 'a' → task 3 'b'); the failing schedule had 37, reduced
    /// in 12 runs`, with task labels from `trace`.
    public func line(trace: Trace) -> String {
      let count = preemptions.count
      if count == 0 && originalPreemptions == 0 {
        return
          "0 preemptions: each task ran until it suspended or ended; the order in which waiting tasks ran is enough"
      }
      let list = preemptions.prefix(5).map {
        "step \($0.step): \(trace.label(ofTask: $0.from)) → \(trace.label(ofTask: $0.to))"
      }
      let shown = list.isEmpty ? "" : " (" + list.joined(separator: "; ") + (count > 5 ? "; …" : "") + ")"
      let origin =
        count == originalPreemptions
        ? "no fewer found in \(runs) run(s)"
        : "the failing schedule had \(originalPreemptions), reduced in \(runs) run(s)"
          // The run with none is always tried first, so 0 or 1 left is the fewest there are.
          + (count > 1 ? " (fewer, not necessarily the fewest)" : "")
      return "\(count) preemption\(count == 1 ? "" : "s")\(shown); \(origin)"
        + (budgetExhausted ? " (the reduction's budget ran out)" : "")
    }
  }

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
