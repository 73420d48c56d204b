#if compiler(>=6.3)
  /// What one run is asked to do, handed as one value from ``RunDriver/run(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)``
  /// through the watched run and the driver's set-up to its loop.
  @available(ExecutorHooks 1.0, *)
  struct RunSettings {
    /// How hops onto actors are scheduled (see ``RunDriver/HopPolicy``).
    var policy: RunDriver.HopPolicy
    /// Whether tasks the run's code creates get the harness's task-executor preference.
    var newTasksPreferHarness: Bool
    /// The most jobs the run may take.
    var stepBudget: Int
    /// How long the run waits for a declared outside wake-up.
    var outsideWakeUpTimeout: Duration
    /// How long the run waits for work outside the harness (see ``OutsideWorkState``).
    var outsideWorkTimeout: Duration
    /// The tasks the run may cancel as schedule choices (nil: none).
    var targets: CancellationTargets?
    /// How long a job may run before the run leaves one-job-at-a-time (nil: never; see
    /// `RunDriver+Overstay`).
    var jobSlice: Duration? = nil

    /// The settings of the short warm-up run a process makes before its first run.
    static func warmUp(policy: RunDriver.HopPolicy) -> RunSettings {
      RunSettings(
        policy: policy, newTasksPreferHarness: false, stepBudget: 1_000, outsideWakeUpTimeout: .zero,
        outsideWorkTimeout: .zero, targets: nil)
    }
  }
#endif
