/// Follows a failing run's choices of tasks, but preempts only where it is allowed to: the
/// strategy a ``ScheduleReducer`` tries candidate schedules with.
///
/// At each choice: when what ran last can go on (see `ChoiceContext/continuingIndex`), it goes
/// on, unless this choice is one at which the guiding run preempted and the preemption is kept, in
/// which case the guiding run's task runs (if it can). When nothing can go on, the guiding run's
/// task at this choice runs if it can, else the oldest runnable job. Past the guiding run's
/// choices, work goes on while it can and otherwise the oldest job runs. The guiding run's timer delays are replayed;
/// its cancellations and outside admissions are not (a schedule with them is not reduced).
package struct PreemptionGuidedStrategy: ScheduleStrategy, Sendable {
  private let guide: [Int]
  private let keptPreemptions: Set<Int>
  private var position = 0
  /// The guiding run's timer delays.
  public let replayedTimerDelays: [UInt64?]?

  /// Creates the strategy.
  /// - Parameters:
  ///   - guide: The task chosen at each choice of the guiding run
  ///     (``PreemptionRecorder/chosenTasks``).
  ///   - keptPreemptions: The choices (indices into `guide`) at which a preemption is kept.
  ///   - timerDelays: The guiding run's timer delays (``Schedule/timerDelays``).
  public init(guide: [Int], keptPreemptions: Set<Int>, timerDelays: [UInt64?]) {
    self.guide = guide
    self.keptPreemptions = keptPreemptions
    replayedTimerDelays = timerDelays
  }

  /// The oldest runnable job (a run calls the context form).
  public func choose(runnableCount: Int) -> Int { 0 }

  /// The guided choice.
  @_spi(Strategies) public mutating func choose(from runnable: RunnableJobs, context: ChoiceContext) -> Int {
    defer { position += 1 }
    let wanted = position < guide.count ? guide[position] : nil
    if let going = context.continuingIndex {
      if keptPreemptions.contains(position), let wanted, let index = runnable.index(ofTask: wanted), index != going {
        return index
      }
      return going
    }
    if let wanted, let index = runnable.index(ofTask: wanted) { return index }
    return 0
  }
}
