#if compiler(>=6.3)
  import AsyncQueue

  /// Feeds the active controlled run the life of queue items enqueued and run on its driver
  /// thread; items of code outside the run (tests running in parallel) are declined, which costs
  /// them one lock and nothing more.
  @available(ExecutorHooks 1.0, *)
  final class HarnessQueueObserver: QueueObserver {
    func itemEnqueued(on queue: QueueDescription, waiting: Bool, barrier: Bool) -> UInt64? {
      RunDriver.shared.itemEnqueued(on: queue, waiting: waiting, barrier: barrier)
    }

    func itemStarted(_ token: UInt64) {
      RunDriver.shared.itemStarted(token)
    }

    func itemFinished(_ token: UInt64) {
      RunDriver.shared.itemFinished(token)
    }

    /// The harness's task executor for tasks a queue creates under a controlled run (on its
    /// driver thread), so that their actor hops are scheduling points; nil elsewhere.
    ///
    /// Why the queues' tasks take another shape under a run than the one they ship with (started
    /// on their actor): the test binary's own `swift_task_create` gives most tasks made in a run
    /// the harness's preference (see `TaskCreation.c`), and `Task(on:)`'s shipping shape is then
    /// scheduled as it is. But an `ActorQueue` item starts through `Task.immediate`, whose task the
    /// concurrency runtime creates inside itself, where that definition is never called; and a
    /// statically linked binary (queue-fuzz's) calls the runtime's own. Without the preference
    /// named here, those tasks would leave actors inline and their hops would be no choices.
    /// `HopSchedulingTests` runs the shipping shape under the harness and shows both.
    var taskExecutorForNewTasks: (any TaskExecutor)? {
      RunDriver.shared.queueTasksPreferHarness ? HarnessTaskExecutor.shared : nil
    }
  }
#endif
