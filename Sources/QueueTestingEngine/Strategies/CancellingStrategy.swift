/// Adds cancellation choices to a strategy: between jobs, it may cancel one of the run's
/// targeted tasks (see ``CancellationTargets``); job choices are the base strategy's, unchanged.
///
/// At each step, each eligible task is cancelled with probability `1 / expectedSteps`, from a
/// generator of its own (so the base strategy makes the same job choices as without it). Over a
/// run as long as `expectedSteps`, about two targeted tasks in three are cancelled, at steps
/// spread evenly over the run, and the rest never are: both the early, the late and the missing
/// cancellation get explored.
public struct CancellingStrategy<Base: ScheduleStrategy>: ScheduleStrategy {
  /// The strategy that chooses the jobs.
  public private(set) var base: Base
  private var dice: SplitMix64
  /// The steps the cancellations are spread over.
  let expectedSteps: Int
  private var lastStepRolled = -1

  /// Wraps `base`; `seed` drives the cancellations, `expectedSteps` (the length of a previous
  /// run, say) spreads them.
  public init(_ base: Base, seed: UInt64, expectedSteps: Int) {
    self.base = base
    dice = SplitMix64(seed: seed ^ 0xC0FF_EE00_CA9C_E100)
    self.expectedSteps = max(expectedSteps, 1)
  }

  /// The base strategy's choice.
  public mutating func choose(runnableCount: Int) -> Int {
    base.choose(runnableCount: runnableCount)
  }

  /// The base strategy's choice.
  @_spi(Strategies) public mutating func choose(from runnable: RunnableJobs, context: ChoiceContext) -> Int {
    base.choose(from: runnable, context: context)
  }

  /// The base strategy's.
  @_spi(Strategies) public var fairFromChoice: Int? { base.fairFromChoice }

  /// The base strategy's summary.
  public var summary: String? { base.summary }

  /// The base strategy's replayed admissions.
  @_spi(Strategies) public var replayedAdmissions: [Schedule.Admission]? { base.replayedAdmissions }

  /// The base strategy's replayed timer delays.
  @_spi(Strategies) public var replayedTimerDelays: [UInt64?]? { base.replayedTimerDelays }

  /// One roll per step: a task to cancel with probability `eligibleTasks.count / expectedSteps`,
  /// each eligible task equally likely.
  @_spi(Strategies) public mutating func cancellation(afterStep step: Int, eligibleTasks: [Int]) -> Int? {
    guard step != lastStepRolled else { return nil }
    lastStepRolled = step
    let roll = dice.next() % UInt64(expectedSteps)
    return roll < UInt64(eligibleTasks.count) ? eligibleTasks[Int(roll)] : nil
  }
}

extension CancellingStrategy: Sendable where Base: Sendable {}
