#if compiler(>=6.3)
  internal import CQueueTestingRuntime

  /// Tasks created on the driver thread, which take the harness's task-executor preference (see
  /// `TaskCreation.c`).
  @available(ExecutorHooks 1.0, *)
  enum TaskCreationProbe {
    /// Makes tasks created on the calling thread from now on, without a preference of their own and
    /// not structured children, prefer `executor`; nil stops it.
    static func preferForNewTasks(_ executor: UnownedTaskExecutor?) {
      if let executor {
        let (identity, implementation) = unsafeBitCast(executor, to: (UInt, UInt).self)
        qt_prefer_task_executor_for_new_tasks(identity, implementation)
      } else {
        qt_prefer_task_executor_for_new_tasks(0, 0)
      }
    }

    /// Whether a task was created through the harness's definition in this process.
    static var isInterposed: Bool { qt_task_creation_is_interposed() }
  }
#endif
