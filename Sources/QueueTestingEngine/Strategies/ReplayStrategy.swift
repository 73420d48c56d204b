/// Plays back a recorded ``Schedule``; after its end (or for a choice out of range) it picks the
/// oldest runnable job, so a replay of a shortened schedule still runs to completion.
///
/// The schedule's cancellations are made at their steps; one whose task is not cancellable at
/// that step (a shortened or edited schedule) is skipped.
public struct ReplayStrategy: ScheduleStrategy, Sendable {
  private let choices: [Int]
  private var position = 0
  private let cancellations: [Schedule.Cancellation]
  private var nextCancellation = 0
  /// The schedule's admissions of work from outside, which the run replays at their steps.
  public let replayedAdmissions: [Schedule.Admission]?
  /// The schedule's timer delays, which the run uses instead of measuring.
  public let replayedTimerDelays: [UInt64?]?

  /// Creates a strategy that replays `schedule`.
  public init(_ schedule: Schedule) {
    choices = schedule.choices
    cancellations = schedule.cancellations
    replayedAdmissions = schedule.admissions
    replayedTimerDelays = schedule.timerDelays
  }

  /// Returns the next recorded choice.
  public mutating func choose(runnableCount: Int) -> Int {
    defer { position += 1 }
    guard position < choices.count, choices[position] < runnableCount else { return 0 }
    return choices[position]
  }

  /// Returns the recorded cancellation of this step, if its task is eligible.
  @_spi(Strategies) public mutating func cancellation(afterStep step: Int, eligibleTasks: [Int]) -> Int? {
    while nextCancellation < cancellations.count {
      let recorded = cancellations[nextCancellation]
      guard recorded.step <= step else { return nil }
      nextCancellation += 1
      if recorded.step == step && eligibleTasks.contains(recorded.task) { return recorded.task }
    }
    return nil
  }
}
