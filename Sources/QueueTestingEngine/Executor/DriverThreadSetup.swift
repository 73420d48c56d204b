#if compiler(>=6.3)

  /// What a thread that drives a run turns on for the run's jobs, and off when it stops driving.
  ///
  /// The calls the harness interposes (task creation, actor hops, Dispatch work, clock reads)
  /// read their switches per thread: the thread that begins a run and a relief thread that goes
  /// on with it after a job overstayed its slice (see `RunDriver+Overstay`) turn on the same.
  @available(ExecutorHooks 1.0, *)
  struct DriverThreadSetup {
    private let settings: RunSettings
    private var samplesWereBlocked = false

    /// A set-up for runs with `settings`, not begun.
    init(settings: RunSettings) {
      self.settings = settings
    }

    /// Turns the switches on for the calling thread. `countsOutsideWork`: whether the thread
    /// counts the work it hands out as the run's (the counts themselves belong to the run, begun
    /// by its first thread).
    mutating func begin(countsOutsideWork: Bool) {
      // A watcher may sample this thread's stack to name what a stuck job waits in.
      samplesWereBlocked = ThreadProbe.allowStackSamples()
      OutsideWorkProbe.countOnThisThread(countsOutsideWork)
      // Tasks the run's code creates prefer the harness's executor, as its root does, so that
      // their hops off an actor are scheduling points too; see `TaskCreation.c`.
      if settings.newTasksPreferHarness {
        TaskCreationProbe.preferForNewTasks(RunDriver.RunExecutors().task)
      }
      // Hops onto and off actors, for the run's picture (see `ActorHops.c`).
      ActorHopProbe.record(true)
      // A task hopping onto a default actor arrives as a job of its own (see `ActorArrivalExecutor`).
      if settings.policy == .everyHop {
        ActorHopProbe.deferArrivals(to: ActorArrivalExecutor.unowned)
      }
      // Targets by name are learned at deferred hops too.
      if settings.targets?.names.isEmpty == false { ActorHopProbe.observeDeferredHops(RunDriver.noteHoppingTarget) }
    }

    /// Turns the switches off again for the calling thread.
    func end() {
      ActorHopProbe.observeDeferredHops(nil)
      ActorHopProbe.deferArrivals(to: nil)
      ActorHopProbe.record(false)
      TaskCreationProbe.preferForNewTasks(nil)
      OutsideWorkProbe.countOnThisThread(false)
      ThreadProbe.restoreStackSamples(wasBlocked: samplesWereBlocked)
    }
  }
#endif
