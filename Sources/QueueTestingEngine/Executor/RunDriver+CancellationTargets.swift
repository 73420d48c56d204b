#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation
  import Synchronization

  // Learning, as their jobs are enqueued, which tasks a run's cancellation targets name.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// For a run with cancellation targets: notes the tasks a job enqueued on the driver thread
    /// shows to be targeted. A new task whose first job the root enqueues is one of the root's
    /// children; the current task is learned by name (`Task.name` is only readable for it).
    @inline(never)
    func noteCancellationTargets(_ targets: CancellationTargets, job: UnownedJob, taskID: UInt64) {
      let current = Self.currentTask()
      let state = statePointer
      if targets.includesChildrenOfRoot, taskID != 0, let current, current.id == state.pointee.rootTaskID,
        taskID != current.id, !state.pointee.knows(taskID)
      {
        state.pointee.noteTarget(taskID, handle: Self.handle(ofTaskJob: job))
      }
      guard let current else { return }
      // The current task's name, the only one the runtime shows: for the trace (failures name
      // cancelled tasks) and for targets by name.
      let name = Task.name
      state.pointee.noteName(ofCurrentTask: current.id, name: name)
      if !targets.names.isEmpty { state.pointee.noteIfTargetedByName(current, name: name) }
    }

    /// For a run with targets by name: notes the task hopping onto an actor (the current task, at
    /// its deferred hop; see `ActorHops.c`) if its name is targeted. Its arrival job is enqueued
    /// once it is no longer current, where ``noteCancellationTargets(_:job:taskID:)`` cannot
    /// learn its name.
    static let noteHoppingTarget: @convention(c) () -> Void = {
      let driver = RunDriver.shared
      guard driver.enterDriverState() else { return }
      defer { driver.leaveDriverState() }
      guard let current = currentTask() else { return }
      let name = Task.name
      driver.statePointer.pointee.noteName(ofCurrentTask: current.id, name: name)
      driver.statePointer.pointee.noteIfTargetedByName(current, name: name)
    }
  }
#endif
