/// A run with exactly one preemption: each task goes on while it can, except at the `point`-th
/// choice where one could (counted from 0), where the oldest other runnable job runs instead.
/// Where no task can go on, the oldest runnable job runs.
///
/// The schedule reducer runs it for each point in turn, after the run with no preemption passed:
/// a bug that one switch brings out is found with one, wherever the failing run's own switches
/// were (keeping one of those alone may no longer line up with the run it meant).
package struct SinglePreemptionStrategy: ScheduleStrategy, Sendable {
  private let point: Int
  private var pointsSeen = 0
  package let replayedTimerDelays: [UInt64?]?

  package init(point: Int, timerDelays: [UInt64?]) {
    self.point = point
    replayedTimerDelays = timerDelays
  }

  package func choose(runnableCount: Int) -> Int { 0 }

  package mutating func choose(from runnable: RunnableJobs, context: ChoiceContext) -> Int {
    guard let going = context.continuingIndex else { return 0 }
    defer { pointsSeen += 1 }
    guard pointsSeen == point else { return going }
    return going == 0 ? 1 : 0
  }
}
