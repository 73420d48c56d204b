import Foundation

/// How much of a series a test spends before it stops, passing: the default series runs up to
/// its count of schedules, but stops sooner where more schedules would no longer learn anything.
///
/// Every rule but ``seconds`` is counted in the runs' own numbers (steps, distinct traces, the
/// virtual time of a run paced by real time), never in wall-clock time: the same test with the
/// same seed runs the same schedules, so a series replays as a whole, and each failure's replay
/// line replays its schedule. The series stops, passing, at the first of:
/// - a run with no scheduling choice at all (one job runnable at every step, no work outside the
///   harness, no cancellation choices): every schedule would give that one interleaving;
/// - ``minimumSchedules`` runs, none of which had a scheduling choice, though they waited for work
///   outside the harness: what differed between them was only that work's real timing, which no
///   strategy steers (the runs are as good as the test run plain, again and again);
/// - ``schedulesWithoutNewInterleaving`` schedules in a row that gave no interleaving the series
///   had not seen;
/// - ``steps`` spent over its schedules (a long body gets fewer schedules), where a run that
///   waited for work outside the harness also spends its virtual time, paced by real time, at
///   ``stepsPerPacedMillisecond``;
/// - ``seconds`` of wall-clock time, if set (not replayable as a series: which schedules ran
///   depends on the machine).
///
/// None of them stops a series before ``minimumSchedules`` (one turn of the
/// portfolio), but the first. A failing schedule ends a series whatever its budget.
public struct ScheduleBudget: Equatable, Sendable, CustomStringConvertible {
  /// The steps all schedules of a series may take together.
  public var steps: Int
  /// How many schedules in a row may give no new interleaving before the series stops.
  public var schedulesWithoutNewInterleaving: Int
  /// The schedules a series runs before any rule but "no choice at all" may stop it.
  public var minimumSchedules: Int
  /// What a millisecond of a run's virtual time costs, in steps, when the run waited for work
  /// outside the harness (its virtual time was then paced by real time, so it took that long).
  public var stepsPerPacedMillisecond: Int
  /// Wall-clock seconds the series may take (nil: no such limit).
  public var seconds: Double?

  /// Creates a budget.
  public init(
    steps: Int, schedulesWithoutNewInterleaving: Int, minimumSchedules: Int = 4,
    stepsPerPacedMillisecond: Int = 20, seconds: Double? = nil
  ) {
    self.steps = steps
    self.schedulesWithoutNewInterleaving = schedulesWithoutNewInterleaving
    self.minimumSchedules = minimumSchedules
    self.stepsPerPacedMillisecond = stepsPerPacedMillisecond
    self.seconds = seconds
  }

  /// The default series' budget: 50,000 steps, and 12 schedules in a row with no new
  /// interleaving (three turns of the portfolio).
  public static let `default` = ScheduleBudget(steps: 50_000, schedulesWithoutNewInterleaving: 12)

  /// This budget `factor` times over: its steps, its patience for schedules with no new
  /// interleaving, and its seconds (for a nightly run: "10× the default").
  public func scaled(by factor: Int) -> ScheduleBudget {
    var scaled = self
    scaled.steps = steps.multipliedReportingOverflow(by: factor).overflow ? .max : steps * factor
    scaled.schedulesWithoutNewInterleaving = schedulesWithoutNewInterleaving * factor
    scaled.seconds = seconds.map { $0 * Double(factor) }
    return scaled
  }

  /// For example "50,000 steps, 12 schedules without a new interleaving".
  public var description: String {
    var parts = [
      "\(steps.formatted()) steps", "\(schedulesWithoutNewInterleaving) schedules without a new interleaving",
    ]
    if let seconds { parts.append("\(seconds.formatted()) s") }
    return parts.joined(separator: ", ")
  }
}

/// Why a series stopped before running all of its schedules, passing so far.
public enum SeriesStop: Equatable, Sendable, CustomStringConvertible {
  /// A run had no scheduling choice at all: every schedule gives its one interleaving.
  case noSchedulingChoice
  /// This many runs had no scheduling choice, only work outside the harness whose real timing
  /// differed: no strategy steers that.
  case noSchedulingChoiceBesideOutsideWork(schedules: Int)
  /// This many schedules in a row gave no new interleaving.
  case noNewInterleaving(schedules: Int)
  /// The series spent its budget of steps (this many, of that budget).
  case stepBudget(spent: Int, budget: Int)
  /// The series ran for its wall-clock budget: which schedules ran depends on the machine.
  case timeBudget(seconds: Double)
  /// The task that ran the series was cancelled (a test's time limit ran out, say).
  case taskCancelled

  /// For example "the step budget of 50,000 was reached (52,310 steps)".
  public var description: String {
    switch self {
    case .noSchedulingChoice:
      "the body has no scheduling choice (one job was runnable at every step), so every schedule gives the same run"
    case .noSchedulingChoiceBesideOutsideWork(let schedules):
      "none of its \(schedules) schedules had a scheduling choice (what varied was only the real timing of work "
        + "outside the harness, which no schedule steers)"
    case .noNewInterleaving(let schedules):
      "\(schedules) schedules in a row gave no new interleaving"
    case .stepBudget(let spent, let budget):
      "its budget of \(budget.formatted()) steps was spent (\(spent.formatted()))"
    case .timeBudget(let seconds):
      "its time budget of \(seconds.formatted()) s ran out, so which schedules ran depends on the machine: the "
        + "series does not replay as a whole (each failure's replay line still does)"
    case .taskCancelled:
      "the task running it was cancelled"
    }
  }
}

/// What a series spent of its ``ScheduleBudget`` so far, and whether it stops: a pure value the
/// series runner feeds each passing run.
/// What one passing run spends of a budget: the numbers ``ScheduleBudgetSpending`` records, kept
/// so that a series whose runs happen elsewhere (a fresh process per schedule) can spend them.
package struct RunSpend: Codable, Equatable, Sendable {
  package var steps: Int
  package var virtualTime: UInt64
  package var waitedForOutsideWork: Bool
  package var hadChoice: Bool
  package var dependsOnOutsideTiming: Bool
  /// The run's trace hash, for the series' coverage.
  package var traceHash: UInt64

  package init(
    steps: Int, virtualTime: UInt64, waitedForOutsideWork: Bool, hadChoice: Bool, dependsOnOutsideTiming: Bool,
    traceHash: UInt64
  ) {
    self.steps = steps
    self.virtualTime = virtualTime
    self.waitedForOutsideWork = waitedForOutsideWork
    self.hadChoice = hadChoice
    self.dependsOnOutsideTiming = dependsOnOutsideTiming
    self.traceHash = traceHash
  }
}

package struct ScheduleBudgetSpending: Sendable {
  package let budget: ScheduleBudget
  /// Steps spent so far (paced virtual time included).
  package private(set) var spent = 0
  /// Whether some run so far had a scheduling choice.
  private var someRunHadAChoice = false

  package init(_ budget: ScheduleBudget) {
    self.budget = budget
  }

  /// What one passing run costs: its steps, and its virtual time when it was paced by real time.
  package func cost(steps: Int, virtualTime: UInt64, waitedForOutsideWork: Bool) -> Int {
    guard waitedForOutsideWork else { return steps }
    let milliseconds = Int(clamping: virtualTime / 1_000_000)
    return steps &+ milliseconds.multipliedReportingOverflow(by: budget.stepsPerPacedMillisecond).partialValue
  }

  /// Records one passing run and says whether the series stops there. `hadChoice`: whether the
  /// strategy had a choice to make in the run (or a cancellation target); `dependsOnOutsideTiming`:
  /// whether the run did work outside the harness, or had hops that were not scheduling points,
  /// so that another run could differ by real timing alone; `coverage`: the series' coverage with
  /// this run recorded; `elapsedSeconds`: wall-clock time since the series began (read only with
  /// ``ScheduleBudget/seconds``).
  package mutating func record(
    steps: Int, virtualTime: UInt64, waitedForOutsideWork: Bool, hadChoice: Bool, dependsOnOutsideTiming: Bool,
    coverage: TraceCoverage, elapsedSeconds: @autoclosure () -> Double
  ) -> SeriesStop? {
    spent = spent &+ cost(steps: steps, virtualTime: virtualTime, waitedForOutsideWork: waitedForOutsideWork)
    if hadChoice { someRunHadAChoice = true }
    if !hadChoice && !dependsOnOutsideTiming && coverage.runs == 1 { return .noSchedulingChoice }
    if let seconds = budget.seconds, elapsedSeconds() >= seconds { return .timeBudget(seconds: seconds) }
    guard coverage.runs >= budget.minimumSchedules else { return nil }
    if !someRunHadAChoice { return .noSchedulingChoiceBesideOutsideWork(schedules: coverage.runs) }
    if coverage.runsSinceNewTrace >= budget.schedulesWithoutNewInterleaving {
      return .noNewInterleaving(schedules: coverage.runsSinceNewTrace)
    }
    if spent >= budget.steps { return .stepBudget(spent: spent, budget: budget.steps) }
    return nil
  }

  /// Records one passing run from what it spent (see ``RunSpend``); `coverage` has it recorded.
  package mutating func record(
    _ run: RunSpend, coverage: TraceCoverage, elapsedSeconds: @autoclosure () -> Double
  ) -> SeriesStop? {
    record(
      steps: run.steps, virtualTime: run.virtualTime, waitedForOutsideWork: run.waitedForOutsideWork,
      hadChoice: run.hadChoice, dependsOnOutsideTiming: run.dependsOnOutsideTiming, coverage: coverage,
      elapsedSeconds: elapsedSeconds())
  }
}
