#if compiler(>=6.3)
  /// A job of the active run that overstayed its slice and goes on beside the run: who it is and
  /// the thread it keeps.
  @available(ExecutorHooks 1.0, *)
  struct OverstayingJob {
    /// The run-local task it belongs to (0: none) and the step that ran it.
    let task: Int
    let step: Int
    /// Whether it runs on the main actor, which it keeps until it returns.
    let isMain: Bool
    /// Its thread (`RunDriver.threadID()`) and that thread's kernel id, for naming its wait.
    let thread: UInt
    let kernelThread: Int
  }
#endif
