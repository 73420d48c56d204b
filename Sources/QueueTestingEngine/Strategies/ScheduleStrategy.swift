/// Chooses which runnable job runs next in a controlled run.
///
/// A strategy sees the runnable jobs in the order they became runnable (a `RunnableJobs` view,
/// with the run-local ids of their tasks) and returns an index. Given the same choices, a run
/// replays exactly: the ``Schedule`` of a run is the list of its choices, and ``ReplayStrategy``
/// plays one back. It is asked only when at least two jobs are runnable.
///
/// The driver asks once per step: a strategy whose choice costs O(1) or O(log n) (using only the
/// view's lookups, never a loop over every runnable job) keeps a run's cost per step flat however
/// many tasks it has. Every strategy of this library does.
///
/// A strategy of your own needs only ``choose(runnableCount:)``. What a strategy is shown
/// beyond the count (the runnable jobs and their tasks, where the run stands) is the
/// `Strategies` SPI, for strategy authors: `@_spi(Strategies) import QueueTesting`.
public protocol ScheduleStrategy {
  /// Returns the index, in `0..<runnableCount`, of the job to run next.
  mutating func choose(runnableCount: Int) -> Int

  /// Returns the index of the job to run next, in `0..<runnable.count`, given the runnable jobs
  /// and where the run stands (see `ChoiceContext`). The driver calls this one; the default
  /// ignores both and calls ``choose(runnableCount:)``.
  @_spi(Strategies) mutating func choose(from runnable: RunnableJobs, context: ChoiceContext) -> Int

  /// The choice (1-based) from which the strategy stopped favouring some jobs over others and
  /// chose fairly, or nil if it never did (see ``PCTStrategy/unfairChoiceLimit``). A series
  /// learns how long a body's runs are only from runs that stayed unfair to the end.
  @_spi(Strategies) var fairFromChoice: Int? { get }

  /// A line about what the strategy did in the run (for example a probability bound), or nil.
  var summary: String? { get }

  /// Returns the task to cancel now, or nil: one of `eligibleTasks` (run-local ids, ascending:
  /// the targeted tasks the run has seen and not cancelled). Asked between jobs, after `step`
  /// jobs ran, only in runs with ``CancellationTargets``, and possibly more than once per step.
  /// The default cancels nothing.
  @_spi(Strategies) mutating func cancellation(afterStep step: Int, eligibleTasks: [Int]) -> Int?

  /// The admissions of work from outside the harness that this strategy replays (see
  /// ``Schedule/admissions``), or nil for a strategy that admits such work as it arrives.
  /// A replay waits, at each recorded step, for the recorded job to come back.
  @_spi(Strategies) var replayedAdmissions: [Schedule.Admission]? { get }

  /// The timer delays (whole milliseconds, nil: never) this strategy replays, in the order the
  /// run sets its timers (see ``Schedule/timerDelays``), or nil for a strategy whose runs
  /// measure each delay. Past the end of the list, delays are measured.
  @_spi(Strategies) var replayedTimerDelays: [UInt64?]? { get }
}

extension ScheduleStrategy {
  /// Calls ``choose(runnableCount:)``.
  @inline(__always)
  @_spi(Strategies) public mutating func choose(from runnable: RunnableJobs, context: ChoiceContext) -> Int {
    choose(runnableCount: runnable.count)
  }

  /// Never: the strategy is as fair as it is from the first choice to the last.
  @_spi(Strategies) public var fairFromChoice: Int? { nil }

  /// No summary.
  public var summary: String? { nil }

  /// Cancels nothing.
  @_spi(Strategies) public mutating func cancellation(afterStep step: Int, eligibleTasks: [Int]) -> Int? { nil }

  /// Admits work from outside as it arrives.
  @_spi(Strategies) public var replayedAdmissions: [Schedule.Admission]? { nil }

  /// Measures every timer's delay.
  @_spi(Strategies) public var replayedTimerDelays: [UInt64?]? { nil }
}
