#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import Dispatch
  import Synchronization

  // The process's executors once the harness is installed (only swapping the executor factory
  // captures MainActor jobs, `Task.yield` and `Task.sleep`). Every enqueue goes through
  // `RunDriver.capture`: jobs that belong to the active controlled run are held; all others are
  // forwarded unchanged to the platform's executors, so code outside a run behaves as it does
  // without the harness.

  /// The default executor: new tasks, resumptions, yields and (as a scheduling executor) sleeps.
  @available(ExecutorHooks 1.0, *)
  final class HarnessTaskExecutor: TaskExecutor, SchedulingExecutor, Sendable {
    static let shared = HarnessTaskExecutor()

    /// `RunDriver.shared`, read once: every job of the process comes through here, and a static
    /// read pays a lazy-initialization check each time.
    private let core = RunDriver.shared

    func enqueue(_ job: consuming ExecutorJob) {
      let unowned = UnownedJob(job)
      // Another tool's global-enqueue hook (`withMainSerialExecutor`) gets the job first, as the
      // runtime gives it every global job of a task without a preference; see `ExecutorHooks.c`.
      if ExecutorProbe.globalHookIsSet, core.honoursGlobalHook, ExecutorProbe.enqueueThroughGlobalHook(unowned) {
        return
      }
      enqueueUnhooked(unowned)
    }

    /// Enqueues a global job as if no other tool had hooked global enqueues.
    func enqueueUnhooked(_ unowned: UnownedJob) {
      if !core.capture(unowned, source: .global) {
        PlatformExecutorFactory.defaultExecutor.enqueue(ExecutorJob(unowned))
      }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
      let unowned = UnownedJob(job)
      if !RunDriver.shared.capture(unowned, source: .timer(delay: nanoseconds(delay))) {
        platformScheduler.enqueue(ExecutorJob(unowned), after: delay, tolerance: tolerance, clock: clock)
      }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
      let unowned = UnownedJob(job)
      // Only an absolute instant of a real clock arrives here; its distance from the real `now` is
      // the requested delay give or take the microseconds since the sleep began. The run rounds
      // delays up to whole milliseconds, which makes that drift vanish.
      let measured = nanoseconds(clock.now.duration(to: instant))
      let stall = RunDriver.shared.measurementStall()
      let delay = measured > stall ? measured - stall : 0
      if !RunDriver.shared.capture(unowned, source: .timer(delay: delay)) {
        platformScheduler.enqueue(ExecutorJob(unowned), at: instant, tolerance: tolerance, clock: clock)
      }
    }

    private var platformScheduler: any SchedulingExecutor {
      // The platform's default executor is a scheduling executor on every platform that has the SPI.
      PlatformExecutorFactory.defaultExecutor as! any SchedulingExecutor
    }

    /// A delay in nanoseconds, saturated at `UInt64.max` (which the run treats as "never").
    private func nanoseconds<D>(_ duration: D) -> UInt64 {
      guard let duration = duration as? Duration, duration > .zero else { return 0 }
      let (seconds, attoseconds) = duration.components
      let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
      guard !overflow else { return .max }
      let (total, late) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
      return late ? .max : total
    }
  }

  /// The main executor: MainActor jobs.
  @available(ExecutorHooks 1.0, *)
  final class HarnessMainExecutor: MainExecutor, Sendable {
    static let shared = HarnessMainExecutor()

    /// `RunDriver.shared`, read once (see ``HarnessTaskExecutor``).
    private let core = RunDriver.shared

    func enqueue(_ job: consuming ExecutorJob) {
      let unowned = UnownedJob(job)
      if !core.capture(unowned, source: .main) {
        Self.forward(unowned)
      }
    }

    /// Runs a main-actor job that does not belong to a run on the main thread, as the platform
    /// would, but under this executor's identity: since the swap this executor *is* the main
    /// actor's executor, and the runtime compares identities to decide whether code is already on
    /// the main actor (e.g. whether `Task.immediate` may start synchronously). Handing the job to
    /// the platform's executor would make main-actor code look foreign to the main actor.
    static func forward(_ job: UnownedJob) {
      DispatchQueue.main.async {
        job.runSynchronously(on: HarnessMainExecutor.shared.asUnownedSerialExecutor())
      }
    }

    func run() throws {
      try PlatformExecutorFactory.mainExecutor.run()
    }

    func stop() {
      PlatformExecutorFactory.mainExecutor.stop()
    }

    func checkIsolated() {
      // Inside a controlled run, MainActor jobs run on the driver thread with this executor as the
      // current one, so the runtime's identity check passes before asking here. Outside a run,
      // main-actor jobs were forwarded to the platform's main executor: ask it.
      if !RunDriver.shared.isDriverThread {
        PlatformExecutorFactory.mainExecutor.checkIsolated()
      }
    }
  }

  @available(ExecutorHooks 1.0, *)
  enum HarnessExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { HarnessMainExecutor.shared }
    static var defaultExecutor: any TaskExecutor { HarnessTaskExecutor.shared }
  }
#endif
