/// Runs a series of schedules, one controlled run each, and stops at the first that fails: the
/// one loop behind the trait, the XCTest entry point and queue-fuzz.
///
/// The caller runs each schedule (``run(_:)``'s closure gets the strategy to run it under) and
/// judges it; the runner chooses the schedules, adds cancellation choices, keeps the coverage
/// and the report, and knows when to stop.
package struct SeriesRunner: Sendable {
  /// The schedules to run.
  public var series: ScheduleSeries
  /// Schedules replayed before the series, in order (a scenario's regression schedules).
  public var leadingSchedules: [Schedule]
  /// The tasks a schedule may cancel between jobs (nil: none). Random, PCT and portfolio
  /// members get cancellation choices; a replay repeats its schedule's own; an exhaustive search
  /// runs without them and then never claims to be exhausted.
  public var cancelling: CancellationTargets?
  /// Stops the series, passing, once this many schedules in a row gave no new interleaving
  /// (nil: run every schedule).
  public var stopAfterSchedulesWithoutNewInterleaving: Int?

  /// Creates a runner.
  public init(
    _ series: ScheduleSeries, leadingSchedules: [Schedule] = [], cancelling: CancellationTargets? = nil,
    stopAfterSchedulesWithoutNewInterleaving: Int? = nil
  ) {
    self.series = series
    self.leadingSchedules = leadingSchedules
    self.cancelling = cancelling
    self.stopAfterSchedulesWithoutNewInterleaving = stopAfterSchedulesWithoutNewInterleaving
  }

  /// What the closure of ``run(_:)`` gets for one schedule.
  public struct ScheduleToRun {
    /// The schedule's number in the series, from 1 (leading schedules first).
    public let number: Int
    /// The strategy to run it under.
    public let strategy: any ScheduleStrategy & Sendable
    /// The cancellation targets to pass to the run (nil: none).
    public let cancelling: CancellationTargets?
  }

  /// Runs the schedules on the calling thread; `runAndJudge` runs one and says how it failed
  /// (nil: it passed).
  public func run(_ runAndJudge: (ScheduleToRun) -> (RunResult, ScheduleFailure.Problem?)) -> SeriesReport {
    var report = SeriesReport(schedulesRun: 0, exhausted: nil, failure: nil)
    let (runCancelling, wrapsStrategies): (CancellationTargets?, Bool) =
      switch series.kind {
      case .random, .pct, .portfolio: (cancelling, cancelling != nil)
      case .replay: (cancelling, false)
      case .exhaustive: (nil, false)
      }
    var expectedSteps = 100
    var reachedTargets: [CancellationTargets] = []
    // One schedule: run, record, and say whether to go on.
    func runOne(_ strategy: any ScheduleStrategy & Sendable, cancelling: CancellationTargets?) -> (RunResult, Bool) {
      report.schedulesRun += 1
      let (result, problem) = runAndJudge(
        ScheduleToRun(number: report.schedulesRun, strategy: strategy, cancelling: cancelling))
      expectedSteps = max(result.steps, 1)
      if report.inlineHopTasks.isEmpty && !result.inlineHopTasks.isEmpty {
        report.inlineHopTasks = result.inlineHopTaskLabels
      }
      report.coverage.record(result.trace.hash)
      report.outsideWork.merge(result.outsideWork)
      if let reached = result.reachedCancellationTargets { reachedTargets.append(reached) }
      guard let problem else {
        // A cancelled caller (a test past its time limit) wants no more schedules.
        if Task.isCancelled {
          report.stoppedByTaskCancellation = true
          return (result, false)
        }
        if let limit = stopAfterSchedulesWithoutNewInterleaving, report.coverage.runsSinceNewTrace >= limit {
          report.stoppedUnchanged = true
          return (result, false)
        }
        return (result, true)
      }
      var failure = ScheduleFailure(problem: problem, scheduleNumber: report.schedulesRun, series: series, run: result)
      failure.coverage = report.coverage
      report.failure = failure
      return (result, false)
    }
    for schedule in leadingSchedules {
      guard runOne(ReplayStrategy(schedule), cancelling: runCancelling).1 else { return report }
    }
    let leading = leadingSchedules.count
    let exhausted = series.runSchedules { baseStrategy in
      // Cancellations come from a generator of their own, seeded per schedule and spread over
      // a run as long as the last one.
      let strategy: any ScheduleStrategy & Sendable =
        wrapsStrategies
        ? Self.cancelling(
          baseStrategy, seed: ScheduleSeries.scheduleSeed(series.seed, report.schedulesRun - leading),
          expectedSteps: expectedSteps)
        : baseStrategy
      return runOne(strategy, cancelling: runCancelling)
    }
    // A series that chose cancellations says which targets it never could cancel; a failure
    // found before every target was reached says nothing of the rest.
    if wrapsStrategies, report.failure == nil, let targets = cancelling {
      report.unreachedCancellationTargets = targets.unreached(by: reachedTargets)
    }
    // Only an exhaustive series answers `exhausted`; with targets it ran without cancellations.
    // (The search itself already refuses the claim when a run did work outside the harness.)
    report.exhausted = exhausted != nil && cancelling != nil ? false : exhausted
    return report
  }

  /// `base` with cancellation choices (opens the existential for ``CancellingStrategy``).
  private static func cancelling(
    _ base: some ScheduleStrategy & Sendable, seed: UInt64, expectedSteps: Int
  ) -> any ScheduleStrategy & Sendable {
    CancellingStrategy(base, seed: seed, expectedSteps: expectedSteps)
  }
}
