#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation
  import Synchronization

  /// The process-wide harness: the executors' entry point for every job of the process, which
  /// routes the jobs of the active run (a ``ControlledRun``) to it, and the driver loop that carries
  /// out that run's decisions.
  ///
  /// Each run owns its state, in two parts. The ``RunState`` (runnable jobs, timers, trace,
  /// choices) is the driver thread's alone: the jobs the driver's own jobs enqueue go to a
  /// driver-only list (``ControlledRun/captures``) and into the state at the next step, so a step
  /// whose jobs all come from the driver takes no lock at all. What other threads share with the
  /// driver (which tasks are the run's, jobs they woke, expected outside wake-ups) is the run's
  /// ``RunMailbox``, behind `condition` (a pthread mutex and condition variable); the driver looks
  /// into it when the mailbox flag says a job was delivered, and whenever nothing is runnable.
  /// What outlives a run is the driver's: the tasks of abandoned runs, and the counters and
  /// flags a watchdog reads across runs.
  ///
  /// This file holds what the driver keeps and how a run is asked for. Making, entering and
  /// ending a run is in `RunDriver+Drive` (the run's own loop is `StrategyRun+Loop`), taking jobs
  /// in and reading their headers in `RunDriver+JobCapture`,
  /// cancellation targets in `RunDriver+CancellationTargets`, recording events in
  /// `RunDriver+Recording`, and work from outside the harness in `RunDriver+OutsideWork`.
  // Safety proof for `@unchecked Sendable`: `installed`, `abandonedTasks`, `activeRun` (but for
  // its driver's reads) and the active run's `mailbox` are read and written only while
  // `condition` is locked. `statePointer`, `driverCaptures` and `stateBetweenRuns` are written
  // only by the thread that begins or ends a run, holding `runSlot`, before it stores its id in
  // `driverThread` and after it cleared it. `statePointer.pointee`, `driverCaptures.pointee` and
  // `driverJobCount` are read and written only by the thread whose id is in `driverThread`
  // (checked by every entry point that reaches them: `capture`, `withDriverState`), and by `run`
  // on that same thread. A thread finds its own id there only between storing it (as it begins
  // driving a run, with `condition` locked) and clearing it (as the run ends, with `condition`
  // locked, after its last access); any other thread reads another id or 0. `runSlot`, held for
  // a whole run, orders one driver's last access before the next driver's first. `hasDeliveries`
  // is an atomic hint; the deliveries themselves are only touched under the lock. The state
  // passes from one thread to another only when a job of the driver overstays its slice
  // (`RunDriver+Overstay`): the slice watcher wins `jobPhase` from the driver by a
  // compare-and-exchange, clears `driverThread`, and waits until `inDriverState` counts no entry
  // of the driver's job (the driver's entries check `driverThread` again after counting
  // themselves in, so each entry either sees the watcher or is waited for); it then touches the
  // state and the captures, and, under `condition`, starts a relief thread, which stores its own
  // id in `driverThread` (under `condition`) before its first access. The thread whose job
  // overstayed, finding it lost `jobPhase` when the job returns, never touches them again, unless
  // it began the run: then it waits, under `condition`, until the thread that ended the run's
  // loop cleared `driverThread` and said so (the run's `mailbox.loopEnded`), and stores its own
  // id again before it finishes the run.
  @available(ExecutorHooks 1.0, *)
  final class RunDriver: @unchecked Sendable {  // safe: proof just above
    static let shared = RunDriver()

    enum Source: Equatable {
      case global
      case main
      case timer(delay: UInt64)
    }

    let condition = NSCondition()
    let runSlot = NSLock()
    /// Held by the calling thread of a watched run for its length (see `runWatched`).
    let watchedRunSlot = NSLock()
    var installed = false
    /// Tasks of runs that were abandoned, whose jobs are dropped (under `condition`).
    var abandonedTasks = AbandonedTasks()
    /// Set (under the lock) when the mailbox holds deliveries, so that the driver only takes the
    /// lock when there is something to collect.
    let hasDeliveries = Atomic<Bool>(false)
    /// The state between runs: the last run's as it ended, which the next run begins from (it
    /// keeps the ready queue's memory and the runs' numbering; see ``RunState/begin``). Only the
    /// thread that holds `runSlot` touches it.
    let stateBetweenRuns: UnsafeMutablePointer<RunState> = {
      let pointer = UnsafeMutablePointer<RunState>.allocate(capacity: 1)
      pointer.initialize(to: RunState())
      return pointer
    }()
    /// The active run's state (``ControlledRun/state``), and between runs `stateBetweenRuns`: the
    /// driver's entry points reach the run's state through this, at every capture and step, with
    /// no reference to count and no exclusivity check. Written by the thread that begins or ends
    /// a run, before it binds itself as the driver and after its last access (see the proof
    /// above); read only by the driver.
    @exclusivity(unchecked) var statePointer: UnsafeMutablePointer<RunState>
    /// The active run's captures (``ControlledRun/captures``), written and read as `statePointer` is;
    /// between runs, the driver's own empty list, which nothing appends to.
    @exclusivity(unchecked) var driverCaptures: UnsafeMutablePointer<DriverCaptures>
    /// The list `driverCaptures` points to between runs.
    let noCaptures: UnsafeMutablePointer<DriverCaptures> = {
      let pointer = UnsafeMutablePointer<DriverCaptures>.allocate(capacity: 1)
      pointer.initialize(to: DriverCaptures())
      return pointer
    }()

    /// The active run (nil between runs): written as a run begins and ends, on its driver thread
    /// and under `condition`; read without the lock on the driver thread (the writer), and under
    /// `condition` elsewhere (the slice watcher, a job that overstayed its slice, another thread's
    /// capture).
    var activeRun: ControlledRun?

    /// Jobs the driver has started in this process, and the run-local task and step of the one
    /// it started last: published (relaxed) before each job runs, for a watchdog on another
    /// thread (see ``jobInProgress``). `driverJobCount` is the driver's own count.
    let jobsStarted = Atomic<Int>(0)
    /// `driverJobCount` once the job it counts has returned: a watcher tells a job in progress
    /// (`jobsStarted` ahead of it) from a driver waiting for outside work.
    let jobsFinished = Atomic<Int>(0)
    /// Set by a caller that gave up on the active run (a job ran past its limit): the driver, if
    /// the job ever returns, ends the run there (see `runWatched`).
    let abandoning = Atomic<Bool>(false)
    /// The kernel's id of the thread driving the latest run (Linux; 0 elsewhere), for reading
    /// what a stuck job's thread is blocked in.
    let driverKernelThread = Atomic<Int>(0)
    /// The job of an abandoned run that has not returned yet (under `condition`): while there is
    /// one, no run can start in this process.
    var abandonedJob: StuckJob?
    /// The thread making a watched run's root task (under `condition`; 0: none), and that task's
    /// first job once it was enqueued (see `runWatched`).
    var rootMaker: UInt = 0
    var pendingRoot: RunState.CapturedJob?
    /// The driver's count of the job in progress while it runs, 0 between jobs, and
    /// ``leftPhase`` once a watcher made the run leave one-job-at-a-time during that job: the
    /// driver and the watcher each change it with a compare-and-exchange, so exactly one of them
    /// decides what follows the job (see `RunDriver+Overstay`).
    let jobPhase = Atomic<Int>(0)
    /// Set by the driver thread while one of its jobs reaches into the driver's state (a capture,
    /// a record), so that a watcher taking the state over waits for it to leave.
    let inDriverState = Atomic<Int>(0)
    /// The job slice of the active run in nanoseconds (0: none), for the watcher.
    let jobSliceNanoseconds = Atomic<Int>(0)
    /// Jobs of the active run that overstayed their slice and have not returned, for watchers:
    /// while there is one, a run with nothing else to do still has a job in progress.
    let jobsOverstaying = Atomic<Int>(0)
    /// Jobs that overstayed their slice and returned, in this process: progress of the run as
    /// much as a job started (see ``progress``).
    let overstayingJobsReturned = Atomic<Int>(0)
    /// The thread whose job the active run runs now, kept while a watcher hands the run over
    /// (when `driverThread` is 0), for reading what its job is blocked in; 0 between runs.
    let jobThread = Atomic<UInt>(0)
    /// Whether the job in progress is a main-actor job, for the watcher.
    let runningIsMain = Atomic<Bool>(false)
    let runningTask = Atomic<Int>(0)
    let runningStep = Atomic<Int>(0)
    var driverJobCount = 0

    /// The id of the thread driving the active run (see `threadID`), 0 between runs: tells the
    /// driver's own calls (captures, records) apart from other threads' without a lock.
    let driverThread = Atomic<UInt>(0)

    init() {
      statePointer = stateBetweenRuns
      driverCaptures = noCaptures
    }

    deinit {
      stateBetweenRuns.deinitialize(count: 1)
      stateBetweenRuns.deallocate()
      noCaptures.pointee.deallocate()
      noCaptures.deinitialize(count: 1)
      noCaptures.deallocate()
    }

    /// Wakes a driver waiting for outside work, to look again: what the C side calls, from any
    /// thread, when work it counts has run or the runtime reported a leaked continuation.
    static let wakeDriver: @convention(c) () -> Void = {
      RunDriver.shared.condition.lock()
      RunDriver.shared.condition.broadcast()
      RunDriver.shared.condition.unlock()
    }

    /// What a run says when another tool set an executor hook the harness cannot honour.
    static func unhonouredHookMessage(_ hook: String) -> String {
      """
      another executor hook was set during the run: \(hook). The jobs it takes go where that hook \
      sends them, not through the harness, so this run cannot order them, and its schedule would \
      not replay. Remove the tool that sets it from tests under controlled scheduling: the harness \
      already runs every job of a run one at a time, in an order it records.
      """
    }

    /// The calling thread's id as a number (never 0 for a running thread).
    @inline(__always)
    static func threadID() -> UInt {
      #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
      #else
        UInt(pthread_self())
      #endif
    }

    /// Whether the calling thread drives the active run, without the lock (see `driverThread`).
    @inline(__always)
    var isDriverThread: Bool {
      driverThread.load(ordering: .relaxed) == Self.threadID()
    }

    /// Hands the driver's buffered captures to the state, in the order they came, and tells the
    /// mailbox about tasks seen for the first time. Called on the driver thread.
    @inline(__always)
    func holdDriverCaptures() {
      driverCaptures.pointee.drain { statePointer.pointee.hold($0) }
      if !statePointer.pointee.newTasks.isEmpty { registerNewTasks() }
    }

    /// Tells the mailbox which tasks are new to the run, before any of their jobs can run (and
    /// so before one of them can be woken from another thread).
    func registerNewTasks() {
      condition.lock()
      activeRun?.mailbox.own(statePointer.pointee.newTasks)
      condition.unlock()
      statePointer.pointee.newTasks.removeAll(keepingCapacity: true)
    }

    /// The runtime's "generic" executor (identity 0): what the platform passes when it runs a
    /// global job. No public API constructs it; the two-word layout is the ABI of
    /// `UnownedSerialExecutor`.
    static let genericExecutor = unsafeBitCast((Int(0), Int(0)), to: UnownedSerialExecutor.self)

    /// The executors jobs run on, read once per run rather than through a lazily initialized
    /// static per job.
    struct RunExecutors {
      let generic = RunDriver.genericExecutor
      let task = HarnessTaskExecutor.shared.asUnownedTaskExecutor()
      let main = HarnessMainExecutor.shared.asUnownedSerialExecutor()
    }

    /// Runs `body` on the driver's state if the calling thread drives the active run (nil
    /// otherwise). The jobs it captured since its last step are held first, so the state is
    /// exactly what it would be had each capture gone straight into it.
    @inline(__always)
    func withDriverState<Result>(_ body: (inout RunState) -> Result) -> Result? {
      guard enterDriverState() else { return nil }
      defer { leaveDriverState() }
      holdDriverCaptures()
      defer { if !statePointer.pointee.newTasks.isEmpty { registerNewTasks() } }
      return body(&statePointer.pointee)
    }

    /// Whether the calling thread drives the active run and may reach into its state now; if
    /// so, it must call ``leaveDriverState()`` when done.
    ///
    /// A watcher may take the state over while a job of the driver is in progress (see
    /// `RunDriver+Overstay`): it clears `driverThread`, then waits while `inDriverState` counts an entry.
    /// Both sides store, then load the other's word, sequentially consistent, so at least one of
    /// them sees the other's store: the driver backs off, or the watcher waits until it is done.
    @inline(__always)
    func enterDriverState() -> Bool {
      guard isDriverThread else { return false }
      inDriverState.wrappingAdd(1, ordering: .sequentiallyConsistent)
      if driverThread.load(ordering: .sequentiallyConsistent) != Self.threadID() {
        inDriverState.wrappingSubtract(1, ordering: .releasing)
        return false
      }
      return true
    }

    /// Ends what ``enterDriverState()`` allowed.
    @inline(__always)
    func leaveDriverState() {
      inDriverState.wrappingSubtract(1, ordering: .releasing)
    }

    /// Clock sleeps for a process's first, private run, before any run of the caller's.
    ///
    /// A sleep on a real clock reaches the harness as an absolute instant, and its virtual delay is
    /// measured against the real clock when it arrives: the microseconds the runtime spends between
    /// the sleeping code's `clock.now` and that enqueue are absorbed by rounding delays up to whole
    /// milliseconds. A process's first such sleep spent 50–70 µs there (lazy symbol binding,
    /// metadata and conformance lookups), and under load one was preempted inside that window for
    /// 5 ms: its virtual deadline came out 4 ms early, and the same seed gave another trace in a
    /// fresh process. Warm, the window is a few microseconds. (A replay does not measure: its
    /// schedule carries each timer's delay.)
    static let clockSleepWarmUp: @Sendable () async -> Void = {
      try? await Task.sleep(for: .microseconds(1))
      try? await Task.sleep(until: .now + .microseconds(1), clock: .suspending)
    }

    /// Runs `body` under control on the calling thread, which becomes the driver, and returns when
    /// the root task finished, the run deadlocked, or the step budget ran out.
    func run<Strategy: ScheduleStrategy>(
      strategy: inout Strategy,
      stepBudget: Int,
      outsideWakeUpTimeout: Duration,
      outsideWorkTimeout: Duration = .zero,
      jobTimeLimit: Duration? = nil,
      jobSlice: Duration? = nil,
      cancelling targets: CancellationTargets? = nil,
      model: RuntimeModel = .faithful,
      measurementStall: (@Sendable () -> UInt64)? = nil,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      let settings = RunSettings(
        model: model, stepBudget: stepBudget, outsideWakeUpTimeout: outsideWakeUpTimeout,
        outsideWorkTimeout: outsideWorkTimeout, targets: targets, jobSlice: jobSlice,
        measurementStall: measurementStall)
      if let jobTimeLimit, jobTimeLimit > .zero {
        return runWatched(strategy: &strategy, settings: settings, jobTimeLimit: jobTimeLimit, body)
      }
      return runHere(strategy: &strategy, settings: settings, rootJob: nil, body)
    }

    /// Runs `body` under control on the calling thread, which becomes the driver. `rootJob`, when
    /// given, is the root task's first job, made by the thread that asked for the run (see
    /// ``runWatched(strategy:settings:jobTimeLimit:_:)``);
    /// otherwise the driver makes the root task itself.
    func runHere<Strategy: ScheduleStrategy>(
      strategy: inout Strategy,
      settings: RunSettings,
      rootJob: RunState.CapturedJob?,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      runSlot.lock()
      defer { runSlot.unlock() }

      condition.lock()
      let installing = !installed
      if installing {
        // Once per process, before the first run: other threads read the factory, so it is never
        // swapped back; outside a run the harness executors forward everything.
        ExecutorProbe.installHooks { job in
          HarnessTaskExecutor.shared.enqueueUnhooked(unsafeBitCast(job, to: UnownedJob.self))
        }
        _createExecutors(factory: HarnessExecutorFactory.self)
        QueueObservation.install(HarnessQueueObserver())
        installed = true
      }
      condition.unlock()
      if installing {
        // One short run of clock sleeps, on this thread, before the process's first run: it needs
        // no other thread (a warm-up that waited for the cooperative pool stalled when the pool's
        // threads were this one and a test waiting for the run slot).
        var warmUp = ReplayStrategy(Schedule(choices: []))
        _ = drive(
          strategy: &warmUp, settings: .warmUp(model: settings.model), rootJob: nil, Self.clockSleepWarmUp)
      }
      return drive(strategy: &strategy, settings: settings, rootJob: rootJob, body)
    }
  }
#endif
