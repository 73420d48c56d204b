#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

  /// Where a task of a run waits between deciding to hop onto a default actor and joining the
  /// actor's queue.
  ///
  /// The runtime queues a hopping task on the actor inside the job that hops. On real threads,
  /// another task running beside that job can reach the actor first; run one job at a time, the
  /// hopping job would always queue first, and the other order would never be offered. So during
  /// a run, `swift_task_switch` (see `ActorHops.c`) first switches such a task here, when it
  /// leaves the generic executor (a task leaving a serial executor reaches the actor before that
  /// executor runs anything else, on real threads, so it joins the queue at the hop). `enqueue`
  /// hands the task back to the run as a job of its own, held like any global job, and when the
  /// strategy runs it, the task makes the real hop. Jobs the strategy runs in between are what
  /// other threads could have run before the task reached the actor.
  @available(ExecutorHooks 1.0, *)
  final class ActorArrivalExecutor: SerialExecutor, Sendable {
    static let shared = ActorArrivalExecutor()

    /// The executor as the runtime refers to it, made once.
    static let unowned = UnownedSerialExecutor(ordinary: shared)

    func enqueue(_ job: consuming ExecutorJob) {
      // The run takes it as a global job of the task (on the run's thread, where the hop was
      // made); a task arriving after its run ended goes to the platform's executor, as any.
      HarnessTaskExecutor.shared.enqueueUnhooked(UnownedJob(job))
    }
  }
#endif
