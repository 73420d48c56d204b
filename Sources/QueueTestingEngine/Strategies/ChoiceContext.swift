/// Where a run stands when its strategy chooses: how many jobs ran, and whose job ran last.
@_spi(Strategies) public struct ChoiceContext: Sendable, Equatable {
  /// The number of jobs the run has run (the chosen job runs as step `step + 1`).
  public var step: Int
  /// The run-local id of the task whose job ran last (0 before the first job, or when that job
  /// belonged to no task, such as an actor's drain).
  public var previousTask: Int
  /// The index, among the runnable jobs, of the job that goes on with what the last step ran, if
  /// it is runnable: that task's next job, or the drain of an idle actor it hopped onto (after a
  /// drain, the next job of a task it ran, or the next actor's drain). Choosing another job is a
  /// *preemption*: a switch away from work that could have gone on.
  public var continuingIndex: Int?

  /// Creates a context.
  public init(step: Int, previousTask: Int, continuingIndex: Int? = nil) {
    self.step = step
    self.previousTask = previousTask
    self.continuingIndex = continuingIndex
  }
}
