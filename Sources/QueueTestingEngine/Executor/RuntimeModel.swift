/// The parts of the harness's model of the runtime that a run can be told to leave out, each to
/// show, in a test, what it guards (a mutation check). Every run a user starts runs
/// ``faithful``; nothing outside the package can change it.
///
/// A field is read by the run it was given to, from the moment the run begins until it ends, on
/// whichever thread drives it: nothing here is process-wide, so tests running in parallel that
/// leave out different parts never see each other's.
package struct RuntimeModel: Sendable, Equatable {
  /// How hops onto and off actors are scheduled.
  package var hops = HopPolicy.everyHop
  /// Whether tasks the run's code creates get the harness's task-executor preference (see
  /// `TaskCreation.c`). Never without it under ``HopPolicy/runtimeFastPath``, which runs jobs
  /// on the generic executor anyway.
  package var newTasksPreferHarness = true
  /// Whether the queues' tasks take the harness's preference under the run (see
  /// `HarnessQueueObserver.taskExecutorForNewTasks`); false keeps the shape they ship with.
  package var queueTasksPreferHarness = true
  /// Whether the run counts the work it hands to Dispatch, the threads it starts and wakes, and
  /// waits for them (see `OutsideWorkCounts.c`).
  package var countsOutsideWork = true
  /// Whether another tool's global-enqueue hook (`withMainSerialExecutor`'s) gets the run's
  /// global jobs, as the runtime gives it every global job of a task without a preference (see
  /// `ExecutorHooks.c`).
  package var honoursOtherToolsGlobalHook = true
  /// Whether the run notes what the runtime reports about leaked continuations (see
  /// `ContinuationMisuse.c`).
  package var watchesLeakedContinuations = true

  /// Everything the harness models: what every run outside the package's own tests uses.
  package static let faithful = RuntimeModel()

  /// A model with every part but those `change` leaves out.
  package static func faithful(but change: (inout RuntimeModel) -> Void) -> RuntimeModel {
    var model = RuntimeModel()
    change(&model)
    return model
  }
}
