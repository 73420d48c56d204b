#if compiler(>=6.3)
  /// One controlled run, whatever its strategy: what it was asked to do, its state, the jobs its
  /// driver captured since the last step, and its mailbox. Made as the run begins and dropped as
  /// it ends; the process-wide ``RunDriver`` routes the runtime's jobs to it while it is the
  /// active run (see ``RunDriver/activeRun``). Kept out of any one thread's frame: the thread that
  /// begins a run drives it, and when a job overstays its slice, a relief thread goes on with the
  /// same run (see `RunDriver+Overstay`). ``StrategyRun`` adds the strategy and the loop.
  // Safety proof for `@unchecked Sendable`: `state.pointee` and `captures.pointee` are the
  // driver's (`RunDriver` reaches them through `statePointer` and `driverCaptures`, under its own
  // proof: only the thread whose id is in `RunDriver.driverThread`, or the slice watcher while it
  // hands the run over). `mailbox` and `traceAtLeaving` are read and written only under
  // `RunDriver.condition`. `leftAtStep` is written by the slice watcher under that lock before it
  // starts a relief thread, and read by the thread that began the run only after the thread that
  // ended the loop said so under that lock (`mailbox.loopEnded`). `settings` and `outerTaskID`
  // are constants.
  @available(ExecutorHooks 1.0, *)
  class ControlledRun: @unchecked Sendable {
    /// The process-wide driver that routes the run's jobs to it, and keeps what outlives it.
    let driver: RunDriver
    /// What the run was asked to do.
    let settings: RunSettings
    /// The runtime id of the task that called the run (0: none), which is the driver thread's
    /// current task whenever a job of no task runs.
    let outerTaskID: UInt64
    /// The run's state, in memory of its own: reached at every step and every capture, where a
    /// stored property of a class would add a dynamic exclusivity check.
    let state: UnsafeMutablePointer<RunState>
    /// Jobs enqueued on the driver thread since the driver last looked at the state, oldest
    /// first: handed to the state, in order, before the state is next read.
    let captures: UnsafeMutablePointer<DriverCaptures>
    /// What other threads share with the run's driver (under `RunDriver.condition`).
    @exclusivity(unchecked) var mailbox = RunMailbox()
    /// The step where the run first left one-job-at-a-time, if it did.
    var leftAtStep: Int?
    /// The trace as it was when the run left one-job-at-a-time, for checks the job that
    /// overstayed makes afterwards, off the driver thread (under `RunDriver.condition`).
    var traceAtLeaving: Trace?

    /// A run that begins from `state`.
    init(driver: RunDriver, state: RunState, settings: RunSettings, outerTaskID: UInt64) {
      self.driver = driver
      self.state = .allocate(capacity: 1)
      self.state.initialize(to: state)
      captures = .allocate(capacity: 1)
      captures.initialize(to: DriverCaptures())
      self.settings = settings
      self.outerTaskID = outerTaskID
    }

    /// Drives the run's steps on the calling thread (see ``StrategyRun/steps()``): what
    /// ``StrategyRun`` does with its strategy. A run is always one of those.
    func driveSteps() -> Bool {
      preconditionFailure("a run is driven through its strategy: only StrategyRun makes one")
    }

    deinit {
      // The ready queue's memory is not the run's: the driver took it back as the run ended.
      state.deinitialize(count: 1)
      state.deallocate()
      captures.pointee.deallocate()
      captures.deinitialize(count: 1)
      captures.deallocate()
    }
  }
#endif
