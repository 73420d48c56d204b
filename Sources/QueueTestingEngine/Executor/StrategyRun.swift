#if compiler(>=6.3)
  /// One controlled run with its strategy: how far its loop got and how it ended.
  // Safety proof for `@unchecked Sendable` (beyond ``ControlledRun``'s): the loop's state
  // (`strategy`'s memory, `replay`, `clockPacing`, `outcome`) is read and written only by the
  // thread that drives the run at the time (the one whose id is in `RunDriver.driverThread`), or
  // by the slice watcher while it hands the run over (it has cleared `driverThread` and waited for
  // the driver's job to leave the state, see `RunDriver+Overstay`). Each hand-over is ordered: the
  // watcher starts the relief thread after its last access; the thread that began the run reads
  // the loop again only after the thread that ended it said so under `RunDriver.condition`
  // (`mailbox.loopEnded`).
  @available(ExecutorHooks 1.0, *)
  final class StrategyRun<Strategy: ScheduleStrategy>: ControlledRun, @unchecked Sendable {
    /// The run's strategy, in memory of its own: reached at every step, where a stored property
    /// of a class would add a dynamic exclusivity check.
    let strategy: UnsafeMutablePointer<Strategy>
    /// A replay's recorded admissions of outside work, and how far it got.
    @exclusivity(unchecked) var replay: RunDriver.AdmissionReplay?
    @exclusivity(unchecked) var clockPacing = ClockPacing()
    /// How the run ended, once it did.
    var outcome = RunResult.Outcome.completed

    init(strategy: Strategy, driver: RunDriver, state: RunState, settings: RunSettings, outerTaskID: UInt64) {
      self.strategy = .allocate(capacity: 1)
      self.strategy.initialize(to: strategy)
      super.init(driver: driver, state: state, settings: settings, outerTaskID: outerTaskID)
    }

    override func driveSteps() -> Bool {
      steps()
    }

    /// The strategy as the run left it; the run is not used again.
    func finish() -> Strategy {
      // The strategy's memory is freed with the run: without this, an optimized build may release
      // the run once it has read the pointer, before the move reads through it (it did, once the
      // driver's end of a run became a function of its own).
      withExtendedLifetime(self) { strategy.move() }
    }

    deinit {
      strategy.deallocate()
    }
  }
#endif
