import Foundation

/// What happened over a series of schedules: what ``ControlledScheduling/run(_:)`` returns
/// (`ControlledScheduling.Report`, a report whose failure's `Problem` is a ``ScheduleProblem``).
public struct SeriesReport<Problem: Equatable & Sendable>: Sendable {
  /// Schedules run, up to and including a failing one.
  public var schedulesRun: Int
  /// For an exhaustive series: whether every schedule within the bound was run and every
  /// run's hops were all scheduling points (see ``ExhaustiveSearch/isExhausted``); nil for
  /// other series.
  public var exhausted: Bool?
  /// The first failing schedule, if any.
  public var failure: ScheduleFailure<Problem>?
  /// The tasks of the first run that could leave an actor without a scheduling point, named
  /// as its trace names them (see ``RunResult/inlineHopTasks``); empty if no run had any.
  public var inlineHopTasks: [String] = []
  /// Distinct interleavings among the schedules run, and how long since the last new one.
  public var coverage = TraceCoverage()
  /// Whether the series stopped early, passing, because no new interleaving came for
  /// `stopAfterSchedulesWithoutNewInterleaving` schedules (set on ``ControlledScheduling``).
  public var stoppedUnchanged = false
  /// Whether the series stopped early, passing so far, because the task that ran it was
  /// cancelled (a test's time limit ran out, say): the schedules after it were not run.
  public var stoppedByTaskCancellation = false
  /// Why the series stopped before running all of its schedules, passing so far (nil: it ran
  /// them all, or stopped at a failure); see ``ScheduleBudget``.
  public var stop: SeriesStop?
  /// The budget the series ran under (nil: none, it runs every schedule unless one fails).
  public var budget: ScheduleBudget?
  /// The steps the series spent of its budget (nil without one).
  public var stepsSpent: Int?
  /// What the series' last passing run spent, for a series of one schedule run alone (in a fresh
  /// process) whose parent keeps the budget.
  package var lastPassingRun: RunSpend?
  /// What the schedules did outside the harness, all together (see ``OutsideWork``).
  public var outsideWork = OutsideWork()
  /// Cancellation targets that no schedule ever made cancellable, each with why (see
  /// ``CancellationTargets/unreached(by:)``): those cancellations were never explored.
  public var unreachedCancellationTargets: [String] = []

  /// Creates a report.
  public init(schedulesRun: Int, exhausted: Bool?, failure: ScheduleFailure<Problem>?) {
    self.schedulesRun = schedulesRun
    self.exhausted = exhausted
    self.failure = failure
  }
}

extension SeriesReport {
  /// How far the series went and why it stopped there, for a person: "stopped after 12 schedules
  /// (12 distinct interleavings): 12 schedules in a row gave no new interleaving (budget: …)".
  public var extent: String {
    let interleavings = "\(coverage.distinctTraces) distinct interleaving(s)"
    guard let stop else { return "\(schedulesRun) schedule(s), \(interleavings)" }
    let spent = stepsSpent.map { ", \($0.formatted()) steps" } ?? ""
    let budget = budget.map { " (budget: \($0))" } ?? ""
    return "stopped after \(schedulesRun) schedule(s) (\(interleavings)\(spent)): \(stop)\(budget)"
  }
}
