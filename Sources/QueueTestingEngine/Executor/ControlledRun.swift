#if compiler(>=6.3)
  /// One controlled run: what it was asked to do, its strategy, how far its loop got, and what it
  /// knew when it left one-job-at-a-time. Made as the run begins and dropped as it ends; the
  /// process-wide ``RunDriver`` routes the runtime's jobs to it while it is the active run (see
  /// ``RunDriver/activeRun``). Kept out of any one thread's frame: the thread that begins a run
  /// drives it, and when a job overstays its slice, a relief thread goes on with the same run (see
  /// `RunDriver+Overstay`).
  // Safety proof for `@unchecked Sendable`: the loop's state (`strategy`'s memory, `replay`,
  // `clockPacing`, `outcome`, `leftAtStep`) is read and written only by the thread that drives
  // the run at the time (the one whose id is in `RunDriver.driverThread`), or by the slice watcher
  // while it hands the run over (it has cleared `driverThread` and waited for the driver's job to
  // leave the state, see `RunDriver+Overstay`). Each hand-over is ordered: the watcher starts the
  // relief thread after its last access; the thread that began the run reads the loop again only
  // after the thread that ended it said so under `RunDriver.condition` (`mailbox.loopEnded`).
  // `outerTaskID` is written once, before the run is published as the active run (under
  // `RunDriver.condition`). `traceAtLeaving` is read and written only under `RunDriver.condition`.
  @available(ExecutorHooks 1.0, *)
  final class ControlledRun<Strategy: ScheduleStrategy>: ActiveRun, @unchecked Sendable {
    /// The run's strategy, in memory of its own: reached at every step, where a stored property
    /// of a class would add a dynamic exclusivity check.
    let strategy: UnsafeMutablePointer<Strategy>
    let settings: RunSettings
    /// A replay's recorded admissions of outside work, and how far it got.
    @exclusivity(unchecked) var replay: RunDriver.AdmissionReplay?
    @exclusivity(unchecked) var clockPacing = ClockPacing()
    /// How the run ended, once it did.
    var outcome = RunResult.Outcome.completed
    /// The step where the run first left one-job-at-a-time, if it did.
    var leftAtStep: Int?
    /// The runtime id of the task that called the run (0: none), which is the driver thread's
    /// current task whenever a job of no task runs.
    let outerTaskID: UInt64
    /// The trace as it was when the run left one-job-at-a-time, for checks the job that
    /// overstayed makes afterwards, off the driver thread.
    var traceAtLeaving: Trace?

    init(strategy: Strategy, settings: RunSettings, outerTaskID: UInt64) {
      self.strategy = .allocate(capacity: 1)
      self.strategy.initialize(to: strategy)
      self.settings = settings
      self.outerTaskID = outerTaskID
    }

    func driveSteps(on driver: RunDriver) -> Bool {
      driver.driveSteps(self)
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

  /// The active run as the process-wide driver and a relief thread see it, whatever its strategy.
  @available(ExecutorHooks 1.0, *)
  protocol ActiveRun: AnyObject, Sendable {
    /// What the run was asked to do.
    @available(ExecutorHooks 1.0, *)
    var settings: RunSettings { get }
    /// The step where the run first left one-job-at-a-time, if it did.
    var leftAtStep: Int? { get set }
    /// The runtime id of the task that called the run (0: none).
    var outerTaskID: UInt64 { get }
    /// The trace as it was when the run left one-job-at-a-time (under `RunDriver.condition`).
    var traceAtLeaving: Trace? { get set }
    /// Drives the run's steps on the calling thread (see ``RunDriver/driveSteps(_:)``).
    @available(ExecutorHooks 1.0, *)
    func driveSteps(on driver: RunDriver) -> Bool
  }
#endif
