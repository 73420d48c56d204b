#if compiler(>=6.3)
  /// What one run is asked to do, handed as one value from ``RunDriver/run(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)``
  /// through the watched run and the driver's set-up to its loop.
  @available(ExecutorHooks 1.0, *)
  struct RunSettings {
    /// What of the runtime the run models (always ``RuntimeModel/faithful`` but in mutation
    /// checks).
    var model: RuntimeModel
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
    /// Nanoseconds by which the measured delay of a sleep comes out short, asked in the sleeping
    /// task as its timer reaches the harness: lets a test show that a replay does not depend on
    /// that measurement, as when the measuring thread stalls. Nil in every other run.
    var measurementStall: (@Sendable () -> UInt64)? = nil

    /// How hops onto actors are scheduled.
    var policy: HopPolicy { model.hops }

    /// Whether tasks the run's code creates get the harness's task-executor preference.
    var newTasksPreferHarness: Bool { model.newTasksPreferHarness && model.hops.schedulesEveryHop }

    /// The settings of the short warm-up run a process makes before its first run.
    static func warmUp(model: RuntimeModel) -> RunSettings {
      RunSettings(
        model: .faithful {
          $0 = model
          $0.newTasksPreferHarness = false
        }, stepBudget: 1_000,
        outsideWakeUpTimeout: .zero, outsideWorkTimeout: .zero, targets: nil)
    }
  }
#endif
