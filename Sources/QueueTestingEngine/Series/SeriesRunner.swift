import Foundation

/// Runs a series of schedules, one controlled run each, stops at the first that fails, and
/// reduces that one: the one loop behind the trait, the XCTest entry point and queue-fuzz.
///
/// The caller runs each schedule (``run(_:)``'s closure gets the strategy to run it under) and
/// judges it; the runner chooses the schedules, adds cancellation choices, keeps the coverage
/// and the report, knows when to stop, and reduces the failing schedule to fewer preemptions
/// (keeping a candidate only when it fails the same way, by ``FailureIdentity``).
package struct SeriesRunner: Sendable {
  /// The schedules to run.
  package var series: ScheduleSeries
  /// Schedules replayed before the series, in order (a scenario's regression schedules).
  package var leadingSchedules: [Schedule]
  /// The tasks a schedule may cancel between jobs (nil: none). Random, PCT and portfolio
  /// members get cancellation choices; a replay repeats its schedule's own; an exhaustive search
  /// runs without them and then never claims to be exhausted.
  package var cancelling: CancellationTargets?
  /// Stops the series, passing, once this many schedules in a row gave no new interleaving
  /// (nil: run every schedule).
  package var stopAfterSchedulesWithoutNewInterleaving: Int?
  /// How a failing schedule is reduced (nil: it is not). A replay is never reduced (it reports
  /// the schedule given), nor a failure after which no other run can start
  /// (``SeriesProblem/allowsAnotherRun``).
  package var reducing: ScheduleReducer?
  /// When a random, PCT or portfolio series stops before its count of schedules, passing (nil:
  /// it runs them all); see ``ScheduleBudget``.
  package var budget: ScheduleBudget?

  /// Creates a runner.
  package init(
    _ series: ScheduleSeries, leadingSchedules: [Schedule] = [], cancelling: CancellationTargets? = nil,
    stopAfterSchedulesWithoutNewInterleaving: Int? = nil, reducing: ScheduleReducer? = nil,
    budget: ScheduleBudget? = nil
  ) {
    self.budget = budget
    self.series = series
    self.leadingSchedules = leadingSchedules
    self.cancelling = cancelling
    self.stopAfterSchedulesWithoutNewInterleaving = stopAfterSchedulesWithoutNewInterleaving
    self.reducing = reducing
  }

  /// How the caller judged one run.
  package struct Judgement<Problem: SeriesProblem>: Sendable {
    /// How it failed (nil: it passed).
    package var problem: Problem?
    /// Where its failures were recorded (file:line:column, in order), part of its
    /// ``FailureIdentity``.
    package var recordedAt: [String]
    /// Whether the body ended the series without failing (it cancelled its test): no more
    /// schedules run, and the report has no failure.
    package var endsSeries: Bool

    /// A judgement: `problem` (nil: passed), recorded at `recordedAt`.
    package init(_ problem: Problem?, recordedAt: [String] = [], endsSeries: Bool = false) {
      self.problem = problem
      self.recordedAt = recordedAt
      self.endsSeries = endsSeries
    }

    /// What makes this failure the failure it is (nil: it passed).
    var identity: FailureIdentity? {
      problem.map { $0.identity(recordedAt: recordedAt) }
    }
  }

  /// What the closure of ``run(_:)`` gets for one schedule.
  package struct ScheduleToRun {
    /// The schedule's number in the series, from 1 (leading schedules first); for a reduction's
    /// candidate, the number of the schedule being reduced.
    package let number: Int
    /// The strategy to run it under.
    package let strategy: any ScheduleStrategy & Sendable
    /// The cancellation targets to pass to the run (nil: none).
    package let cancelling: CancellationTargets?
    /// Whether the run is a candidate of the reduction, not a schedule of the series: what it
    /// records is compared with the failure's, and reported only if it becomes the result.
    package let isReductionCandidate: Bool
  }

  /// Runs the schedules on the calling thread, then reduces the failing one; `runAndJudge` runs
  /// one schedule and judges it. When a reduction found a result, the last run the closure made
  /// replayed it: a caller that keeps what each run recorded holds the result's records then.
  package func run<Problem>(
    _ runAndJudge: (ScheduleToRun) -> (RunResult, Judgement<Problem>)
  ) -> SeriesReport<Problem> {
    var report = SeriesReport<Problem>(schedulesRun: 0, exhausted: nil, failure: nil)
    let family = series.kind.family
    // A seeded series chooses its cancellations (its strategies are wrapped to do so); a replay
    // repeats its schedule's.
    let runCancelling = family.cancels ? cancelling : nil
    let wrapsStrategies = family.isSeeded && cancelling != nil
    var length = RunLength()
    var reachedTargets: [CancellationTargets] = []
    var failingIdentity: FailureIdentity?
    // Only a seeded series stops on its budget: an exhaustive one has a space of its own, and a
    // replay is one run.
    var spending = family.isSeeded ? budget.map(ScheduleBudgetSpending.init) : nil
    report.budget = spending?.budget
    let started = ContinuousClock.now
    // A series that runs one of its schedules alone numbers it as the whole series would.
    let skipped = series.onlyIndex ?? 0
    // One schedule: run, record, and say whether to go on.
    func runOne(_ strategy: any ScheduleStrategy & Sendable, cancelling: CancellationTargets?) -> (RunResult, Bool) {
      report.schedulesRun += 1
      let (result, judgement) = runAndJudge(
        ScheduleToRun(
          number: report.schedulesRun + skipped, strategy: strategy, cancelling: cancelling,
          isReductionCandidate: false))
      if report.inlineHopTasks.isEmpty && !result.inlineHopTasks.isEmpty {
        report.inlineHopTasks = result.inlineHopTaskLabels
      }
      report.coverage.record(result.trace.hash)
      report.outsideWork.merge(result.outsideWork)
      if let reached = result.reachedCancellationTargets { reachedTargets.append(reached) }
      if judgement.endsSeries { return (result, false) }
      guard let problem = judgement.problem else {
        let goesOn = goesOn(
          after: result, report: &report, spending: &spending, mayCancel: runCancelling != nil, started: started)
        return (result, goesOn)
      }
      var failure = ScheduleFailure(
        problem: problem, scheduleNumber: report.schedulesRun + skipped, series: series, run: result)
      failure.coverage = report.coverage
      report.failure = failure
      failingIdentity = judgement.identity
      return (result, false)
    }
    // The series learns how long a run is from these replays too: they run the same body.
    for schedule in leadingSchedules {
      let (result, goesOn) = runOne(ReplayStrategy(schedule), cancelling: runCancelling)
      guard goesOn else { return report }
      length.learn(from: result)
    }
    let leading = leadingSchedules.count
    let exhausted = family.runSchedules(of: series, expecting: length) { baseStrategy, expected in
      // Cancellations come from a generator of their own, seeded per schedule and spread over
      // the steps the series expects.
      let strategy: any ScheduleStrategy & Sendable =
        wrapsStrategies
        ? Self.cancelling(
          baseStrategy, seed: ScheduleSeries.scheduleSeed(series.seed, report.schedulesRun - leading + skipped),
          expectedSteps: expected.steps)
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
    if let failure = report.failure, let identity = failingIdentity {
      report.failure = reduced(failure, identity: identity, runAndJudge)
    }
    return report
  }

  /// Whether the series goes on after a schedule that passed, `result`; if not, `report` says
  /// why it stopped: the caller was cancelled, the series stopped finding new interleavings, or
  /// its budget (`spending`) is spent. `mayCancel`: whether the series' runs may cancel tasks.
  private func goesOn<Problem>(
    after result: RunResult, report: inout SeriesReport<Problem>, spending: inout ScheduleBudgetSpending?,
    mayCancel: Bool, started: ContinuousClock.Instant
  ) -> Bool {
    // A cancelled caller (a test past its time limit) wants no more schedules.
    if Task.isCancelled {
      report.stoppedByTaskCancellation = true
      report.stop = .taskCancelled
      return false
    }
    if let limit = stopAfterSchedulesWithoutNewInterleaving, report.coverage.runsSinceNewTrace >= limit {
      report.stoppedUnchanged = true
      report.stop = .noNewInterleaving(schedules: report.coverage.runsSinceNewTrace)
      return false
    }
    let spend = RunSpend(
      steps: result.steps, virtualTime: result.virtualTime, waitedForOutsideWork: !result.outsideWork.isEmpty,
      hadChoice: result.choices.count > 0 || mayCancel,
      dependsOnOutsideTiming: !result.outsideWork.isEmpty || !result.everyHopWasAChoice,
      traceHash: result.trace.hash)
    report.lastPassingRun = spend
    // Leading schedules (a scenario's regressions) are not the series': they spend nothing.
    guard report.schedulesRun > leadingSchedules.count, spending != nil else { return true }
    let stop = spending?.record(
      spend, coverage: report.coverage, elapsedSeconds: (ContinuousClock.now - started).seconds)
    report.stepsSpent = spending?.spent
    guard let stop else { return true }
    report.stop = stop
    report.stoppedUnchanged = stop == .noNewInterleaving(schedules: report.coverage.runsSinceNewTrace)
    return false
  }

  /// `failure` reduced to fewer preemptions, when ``reducing`` allows it and finds a result.
  private func reduced<Problem>(
    _ failure: ScheduleFailure<Problem>, identity: FailureIdentity,
    _ runAndJudge: (ScheduleToRun) -> (RunResult, Judgement<Problem>)
  ) -> ScheduleFailure<Problem> {
    guard let reducing, failure.problem.allowsAnotherRun else { return failure }
    if series.isReplay { return failure }
    var lastProblem: Problem?
    let result = reducing.reduce(failure.run) { strategy in
      let (run, judgement) = runAndJudge(
        ScheduleToRun(number: failure.scheduleNumber, strategy: strategy, cancelling: nil, isReductionCandidate: true))
      lastProblem = judgement.problem
      return (run, judgement.identity == identity)
    }
    guard let result else { return failure }
    var reduced = failure
    reduced.run = result.run
    // The reducer's last run replayed the result: its problem (a deadlock's report, with the
    // reduced run's steps and tasks) is the one the schedule gives again.
    if let lastProblem { reduced.problem = lastProblem }
    // Which strategy found the failure is the series' story, not the reduction's.
    reduced.run.strategySummary = failure.run.strategySummary
    reduced.reduction = ScheduleReduction(
      preemptions: result.preemptions, originalPreemptions: result.originalPreemptions,
      originalSchedule: failure.run.schedule, runs: result.runs, budgetExhausted: result.budgetExhausted)
    return reduced
  }

  /// `base` with cancellation choices (opens the existential for ``CancellingStrategy``).
  private static func cancelling(
    _ base: some ScheduleStrategy & Sendable, seed: UInt64, expectedSteps: Int
  ) -> any ScheduleStrategy & Sendable {
    CancellingStrategy(base, seed: seed, expectedSteps: expectedSteps)
  }
}
