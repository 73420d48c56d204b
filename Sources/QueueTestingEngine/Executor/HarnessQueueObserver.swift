#if compiler(>=6.3)
  import AsyncQueue

  /// Feeds the active controlled run the life of queue items enqueued and run on its driver
  /// thread; items of code outside the run (tests running in parallel) are declined, which costs
  /// them one lock and nothing more.
  @available(ExecutorHooks 1.0, *)
  final class HarnessQueueObserver: QueueObserver {
    func itemEnqueued(on queue: QueueDescription, waiting: Bool) -> UInt64? {
      RunDriver.shared.itemEnqueued(on: queue, waiting: waiting)
    }

    func itemStarted(_ token: UInt64) {
      RunDriver.shared.itemStarted(token)
    }

    func itemFinished(_ token: UInt64) {
      RunDriver.shared.itemFinished(token)
    }

    /// The harness's task executor for tasks a queue creates under a controlled run (on its
    /// driver thread), so that their actor hops are scheduling points; nil elsewhere.
    var taskExecutorForNewTasks: (any TaskExecutor)? {
      RunDriver.shared.isDriverThread ? HarnessTaskExecutor.shared : nil
    }
  }
#endif
