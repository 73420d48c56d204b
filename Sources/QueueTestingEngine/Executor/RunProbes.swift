#if compiler(>=6.3)
  /// The probes one run turns on for its length, on the thread that begins it (see
  /// `Sources/QueueTestingEngine/Probes`): what the run models of the runtime (``RuntimeModel``)
  /// decides which listen.
  @available(ExecutorHooks 1.0, *)
  struct RunProbes {
    private let model: RuntimeModel
    private var thread: DriverThreadSetup

    init(settings: RunSettings) {
      self.model = settings.model
      self.thread = DriverThreadSetup(settings: settings)
    }

    /// Turns the run's probes on; `wake` is called from another thread when outside work is done
    /// or the runtime reports a leaked continuation.
    mutating func start(wake: @convention(c) () -> Void) {
      // Work this thread hands outside the harness during the run is counted until it is done;
      // each time some is, a driver waiting for outside work looks again.
      OutsideWorkProbe.start(counting: model.countsOutsideWork, done: wake)
      // What the runtime says about continuations dropped without a resume, while the run goes on.
      LeakedContinuationProbe.start(watching: model.watchesLeakedContinuations, tell: wake)
      // Clock reads in the run's jobs follow its virtual time.
      VirtualTimeProbe.begin()
      thread.begin(countsOutsideWork: model.countsOutsideWork)
    }

    /// Turns them off again.
    func stop() {
      thread.end()
      LeakedContinuationProbe.stop()
      OutsideWorkProbe.stop()
    }
  }
#endif
