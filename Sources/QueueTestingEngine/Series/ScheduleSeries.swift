/// A series of schedules to run a body under: which ``ScheduleStrategy`` drives the n-th run.
///
/// The same series always produces the same strategies, so a series replays as a whole; one
/// failing run replays on its own with ``replay(_:)`` and the run's ``RunResult/schedule``.
/// Shared by the Swift Testing trait, the XCTest entry point and `queue-fuzz`.
public struct ScheduleSeries: Equatable, Sendable, CustomStringConvertible {
  /// How the strategies of the series are chosen.
  public enum Kind: Equatable, Sendable {
    /// ``SeededRandomStrategy``, one derived seed per schedule.
    case random
    /// ``PCTStrategy`` of this depth, one derived seed per schedule.
    case pct(depth: Int)
    /// A portfolio: schedule after schedule, a ``SeededRandomStrategy`` and ``PCTStrategy`` of
    /// depths 2 and 3 take turns (see ``portfolioMember(at:)``), one derived seed per schedule.
    /// Random finds shallow races fast, PCT finds bugs that need a few preemptions to line up.
    case portfolio
    /// ``ExhaustiveSearch`` with this delay bound (nil: none); the count is its budget.
    case exhaustive(delayBound: Int?)
    /// One run that plays back this schedule (``ReplayStrategy``).
    case replay(Schedule)
  }

  /// How strategies are chosen.
  public var kind: Kind
  /// The most schedules to run (exactly this many unless a run fails or a search is exhausted).
  public var count: Int
  /// The seed the per-schedule seeds derive from (random and PCT).
  public var seed: UInt64

  /// Runs only the schedule at this index (from 0) of a seeded series, as the whole series would
  /// have run it there: the same strategy and seed. Set by the trait in a process that runs one
  /// schedule of a series alone (see the trait's fresh-process mode); nil runs them all.
  package var onlyIndex: Int?

  /// Creates a series.
  /// - Precondition: `count >= 1`.
  public init(_ kind: Kind, count: Int, seed: UInt64 = 0) {
    precondition(count >= 1, "ScheduleSeries: count must be at least 1")
    self.kind = kind
    self.count = count
    self.seed = seed
  }

  /// `count` seeded random schedules.
  public static func random(_ count: Int = 100, seed: UInt64 = 0) -> ScheduleSeries {
    ScheduleSeries(.random, count: count, seed: seed)
  }

  /// `count` schedules that take turns between random and PCT of depths 2 and 3: the default of
  /// the `.controlledScheduling` trait and of `ControlledScheduling`.
  public static func portfolio(_ count: Int = 100, seed: UInt64 = 0) -> ScheduleSeries {
    ScheduleSeries(.portfolio, count: count, seed: seed)
  }

  /// The strategy a portfolio series uses for schedule `index` (0-based): random, PCT of depth 3,
  /// random, PCT of depth 2, over and over. Random takes every other schedule because most races
  /// need no preemption lined up and random finds them fastest; PCT of depth 1 (priorities with
  /// no change point) is left out: where tasks yield, its runs are one round-robin order over and
  /// over.
  public static func portfolioMember(at index: Int) -> Kind {
    switch index % 4 {
    case 0, 2: .random
    case 1: .pct(depth: 3)
    default: .pct(depth: 2)
    }
  }

  /// `count` PCT schedules of depth `depth`.
  public static func pct(_ count: Int = 100, depth: Int = 3, seed: UInt64 = 0) -> ScheduleSeries {
    ScheduleSeries(.pct(depth: depth), count: count, seed: seed)
  }

  /// Every schedule within `delayBound` delays, at most `budget` of them.
  public static func exhaustive(delayBound: Int? = 2, budget: Int = 10_000) -> ScheduleSeries {
    ScheduleSeries(.exhaustive(delayBound: delayBound), count: budget)
  }

  /// The single run that plays back `schedule`.
  public static func replay(_ schedule: Schedule) -> ScheduleSeries {
    ScheduleSeries(.replay(schedule), count: 1)
  }

  /// Whether the series replays one given schedule (``replay(_:)``).
  package var isReplay: Bool {
    if case .replay = kind { return true }
    return false
  }

  /// For example "random, 100 schedules, seed 0".
  public var description: String {
    switch kind {
    case .random: "random, \(count) schedules, seed \(seed)"
    case .pct(let depth): "PCT depth \(depth), \(count) schedules, seed \(seed)"
    case .portfolio: "portfolio of random and PCT depths 2 and 3, \(count) schedules, seed \(seed)"
    case .exhaustive(let bound):
      "exhaustive, delay bound \(bound.map(String.init) ?? "none"), budget \(count)"
    case .replay(let schedule): "replay of \(schedule)"
    }
  }

  /// Calls `run` with the strategy of each schedule in turn, until `run` returns false for a
  /// run (a failure) or the series ends.
  /// - Returns: For an exhaustive series, whether its whole space was run; nil otherwise.
  @discardableResult
  public func runSchedules(
    _ run: (any ScheduleStrategy & Sendable) throws -> (result: RunResult, keepGoing: Bool)
  ) rethrows -> Bool? {
    try kind.family.runSchedules(of: self, expecting: RunLength()) { strategy, _ in try run(strategy) }
  }

  /// Whether the series is drawn from its seed (random, PCT, portfolio; see
  /// ``SeriesFamily/isSeeded``).
  package var isSeeded: Bool { kind.family.isSeeded }

  /// The seed of schedule `index` of a series seeded with `seed` (SplitMix64 of both).
  public static func scheduleSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
    var generator = SplitMix64(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
    return generator.next()
  }
}
