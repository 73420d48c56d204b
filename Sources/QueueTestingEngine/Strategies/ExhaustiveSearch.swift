/// Bounded exhaustive search: runs every schedule of a body whose cost stays within a delay
/// bound, depth first, until the space is exhausted or a budget of schedules is spent.
///
/// The default schedule always runs the oldest runnable job. Choosing the k-th oldest instead
/// *delays* k jobs; a schedule's cost is the sum of its delays (delay bounding, Emmi, Qadeer and
/// Rakamarić, POPL 2011). Most ordering bugs need one or two delays, so a small bound covers
/// them with few schedules; `nil` explores everything.
///
/// Drive it with ``ControlledExecutor/explore(_:stepBudget:outsideWorkTimeout:_:stopWhen:)``:
/// ```swift
/// let exploration = ControlledExecutor.explore(ExhaustiveSearch(delayBound: 2, budget: 1000)) {
///   await Task.yield()
/// }
/// ```
/// (A strategy's author can also drive it schedule by schedule, `nextStrategy()` then
/// `record(_:)`, through the `Strategies` SPI.)
///
/// Exhaustion is claimed only for what the runs offered as choices: a run whose tasks could
/// leave an actor inline (see ``RunResult/inlineHopTasks``) keeps ``isExhausted`` false even
/// after the last schedule, and ``inlineHopTasks`` names those tasks.
///
/// Exploration depends on runs being deterministic (the same choices give the same branching).
/// There is no partial-order reduction: two schedules that differ only in the order of
/// independent jobs are both run (on 6.3, `Task.yield()` adds such a job, of no task, per yield).
public struct ExhaustiveSearch: Sendable {
  /// The most delays a schedule may contain; nil for no bound.
  public let delayBound: Int?
  /// The most schedules to run.
  public let budget: Int
  /// How many schedules were run (recorded).
  public private(set) var schedulesExplored = 0
  /// True once every schedule within the bound was run, every run's hops were all scheduling
  /// points and no run did work outside the harness: only then has the search seen every
  /// interleaving the runtime allows (within the bound). See ``inlineHopTasks`` and
  /// ``outsideWork``.
  public private(set) var isExhausted = false
  /// True once every schedule within the bound was run, whether or not that exhausts the space.
  public private(set) var ranEverySchedule = false
  /// The tasks of the first run that had tasks able to leave an actor without a scheduling
  /// point (``RunResult/inlineHopTasks``), named as that run's trace names them; empty if no
  /// run had any. When not empty, the search never claims ``isExhausted``: interleavings at
  /// those hops were not offered to it.
  public private(set) var inlineHopTasks: [String] = []
  /// What the runs did outside the harness (see ``OutsideWork``). When not empty, the search
  /// never claims ``isExhausted``: that work ran on real threads, in an order no schedule chose.
  public private(set) var outsideWork = OutsideWork()

  private var pendingPrefix: [Int]? = []

  /// Creates a search.
  /// - Parameters:
  ///   - delayBound: The most delays per schedule (nil: unbounded).
  ///   - budget: The most schedules to run.
  public init(delayBound: Int? = 2, budget: Int = 10_000) {
    precondition(budget >= 1, "ExhaustiveSearch: budget must be at least 1")
    self.delayBound = delayBound
    self.budget = budget
  }

  /// The strategy for the next schedule, or nil when the space is exhausted or the budget spent.
  @_spi(Strategies) public func nextStrategy() -> BoundedExhaustiveStrategy? {
    guard !isExhausted, schedulesExplored < budget, let prefix = pendingPrefix else { return nil }
    return BoundedExhaustiveStrategy(prefix: prefix, index: schedulesExplored + 1, delayBound: delayBound)
  }

  /// Records the run of the last strategy and picks the next schedule: the deepest choice that
  /// can move on to a younger job without exceeding the bound.
  @_spi(Strategies) public mutating func record(_ result: RunResult) {
    schedulesExplored += 1
    if inlineHopTasks.isEmpty && !result.inlineHopTasks.isEmpty {
      inlineHopTasks = result.inlineHopTaskLabels
    }
    outsideWork.merge(result.outsideWork)
    let choices = result.schedule.choices
    let branching = result.branching
    var cost = choices.reduce(0, +)
    var position = min(choices.count, branching.count) - 1
    while position >= 0 {
      cost -= choices[position]
      let next = choices[position] + 1
      if next < branching[position], delayBound.map({ cost + next <= $0 }) ?? true {
        pendingPrefix = Array(choices[..<position]) + [next]
        return
      }
      position -= 1
    }
    pendingPrefix = nil
    ranEverySchedule = true
    isExhausted = inlineHopTasks.isEmpty && outsideWork.isEmpty
  }
}

/// One schedule of an ``ExhaustiveSearch``: plays the given choices, then always runs the oldest
/// runnable job.
@_spi(Strategies) public struct BoundedExhaustiveStrategy: ScheduleStrategy, Sendable {
  private let prefix: [Int]
  private let index: Int
  private let delayBound: Int?
  private var position = 0

  init(prefix: [Int], index: Int, delayBound: Int?) {
    self.prefix = prefix
    self.index = index
    self.delayBound = delayBound
  }

  /// The next choice of the prefix, then the oldest job.
  public mutating func choose(runnableCount: Int) -> Int {
    defer { position += 1 }
    guard position < prefix.count else { return 0 }
    return min(prefix[position], runnableCount - 1)
  }

  /// Which schedule of the search this is.
  public var summary: String? {
    "exhaustive: schedule \(index), delay bound \(delayBound.map(String.init) ?? "none")"
  }
}
