#if compiler(>=6.3)
  @available(ExecutorHooks 1.0, *)
  extension RunState {
    /// What the driver does next.
    enum Step {
      /// Run this job.
      case run(HeldJob)
      /// Cancel this task (a cancellation the strategy chose; see ``CancellationTargets``).
      case cancel(Task<Void, Never>)
      /// Nothing is runnable, but a declared outside wake-up may bring a job: wait for it.
      case waitForOutsideWakeUp
      /// Nothing is runnable, and work outside the harness may bring a job: wait for it this
      /// long in real time, then decide again (see ``OutsideWorkState/waitSpent``). With
      /// `whilePending`, the wait also ends once the work the run handed to Dispatch has all run.
      case waitForOutsideWork(Duration, whilePending: Bool = false)
      /// Nothing is runnable, and a job that overstayed its slice still runs on its own thread:
      /// wait for what it makes, or for it to return.
      case waitForJobsElsewhere
      /// The run is over. Boxed: taken once per run, it would otherwise make every step's value
      /// as large as a deadlock report, and its copies dearer.
      indirect case end(RunResult.Outcome)
    }
  }
#endif
