/// A switch away from work that could have gone on: at a choice, the job that continues what
/// the last step ran was runnable (see `ChoiceContext/continuingIndex`) and the strategy chose
/// another job.
///
/// A run with no preemptions lets each task run until it suspends or ends; the bugs that need a
/// task to be interrupted at one particular point need at least one. A failing schedule reduced to
/// fewer preemptions (see ``ScheduleReducer``) shows where the interruption that matters is.
public struct Preemption: Sendable, Equatable, CustomStringConvertible {
  /// The step the chosen job ran as (from 1).
  public var step: Int
  /// Which choice of the run it was (from 0; only steps with two or more runnable jobs are
  /// choices).
  public var choice: Int
  /// The task that could have gone on (the last step's task, or the task a drain was running).
  public var from: Int
  /// The task that ran instead.
  public var to: Int

  /// Creates a record.
  public init(step: Int, choice: Int, from: Int, to: Int) {
    self.step = step
    self.choice = choice
    self.from = from
    self.to = to
  }

  /// `step 12: task 2 → task 3`.
  public var description: String { "step \(step): task \(from) → task \(to)" }
}
