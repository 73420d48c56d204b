#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import Foundation
  import Synchronization

  // Runs that return even when a job never does: the driver runs on a thread of its own while
  // the caller watches the job in progress, and gives up on the run when one job runs past the
  // limit.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// Runs `body` under control on the driver thread (see ``DriverThread``) and waits for the
    /// result on the calling thread; when one job runs longer than `jobTimeLimit`, returns a
    /// ``RunResult/Outcome/stuck(_:)`` result naming the job and what its thread is blocked in,
    /// and leaves that thread behind.
    ///
    /// The root task is made here, on the calling thread, so that the body sees the caller's
    /// task-local values as it does in a run driven on the calling thread (Swift Testing's
    /// current test and issue handlers among them); its first job is handed to the driver.
    func runWatched<Strategy: ScheduleStrategy>(
      strategy: inout Strategy,
      settings: RunSettings,
      jobTimeLimit: Duration,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      // One watched run at a time from the callers' side too: the root's first job and the
      // driver thread's work are handed over one run at a time.
      watchedRunSlot.lock()
      defer { watchedRunSlot.unlock() }
      let rootJob: RunState.CapturedJob
      switch makeRootHere(policy: settings.policy, body) {
      case .success(let job): rootJob = job
      case .failure(let earlier): return RunResult(stuck: earlier.job)
      }

      let handOff = RunHandOff(strategy: strategy)
      let driver = DriverThread.current()
      // The work holds `body`, which a caller may have made with `withoutActuallyEscaping`: the
      // driver thread lets go of it before the caller learns the run is over.
      driver.perform {
        var strategy = handOff.strategy
        let result = self.runHere(strategy: &strategy, settings: settings, rootJob: rootJob, body)
        handOff.store(result, strategy: strategy)
      } then: {
        handOff.finish()
      }

      // Watch the job in progress: the same count of started jobs, ahead of the finished ones,
      // for longer than the limit is a job that has not returned.
      let limit = jobTimeLimit.seconds
      var lastStarted = -1
      var since = Date()
      while true {
        if let (result, finalStrategy) = handOff.wait(seconds: min(0.05, limit)) {
          strategy = finalStrategy
          return result
        }
        // After the run left one-job-at-a-time, jobs that overstayed and returned count as its
        // progress too, and one that still runs is a job in progress (see `RunDriver+Overstay`).
        let started = progress
        let left = hasLeftOneJobAtATime
        guard driverThread.load(ordering: .relaxed) == driver.id || left, hasJobInProgress else {
          lastStarted = -1
          continue
        }
        if started != lastStarted {
          lastStarted = started
          since = Date()
          continue
        }
        guard Date().timeIntervalSince(since) >= limit else { continue }
        // Read before the job can move on; the run's own numbers, as the trace counts them.
        let task = runningTask.load(ordering: .relaxed)
        let step = runningStep.load(ordering: .relaxed)
        // The job's thread: the driver's, or one that overstayed its slice and goes on beside the run.
        let thread = jobThread.load(ordering: .relaxed)
        let stuck = StuckJob(
          task: task, step: step, limit: jobTimeLimit,
          wait: BlockingWait.of(
            thread: thread == 0 ? driver.id : thread, kernelThread: driverKernelThread.load(ordering: .relaxed)),
          runWentOnBesideIt: left)
        condition.lock()
        // The job may have returned meanwhile: then the run goes on, and so does the watch.
        let stillThere = progress == started && hasJobInProgress
        if stillThere {
          abandonedJob = stuck
          abandoning.store(true, ordering: .relaxed)
        }
        condition.unlock()
        guard stillThere else { continue }
        DriverThread.retire(driver)
        return RunResult(stuck: stuck)
      }
    }

    /// A job of an earlier run that has not returned, which keeps any run from starting.
    struct EarlierRunStuck: Error {
      var job: StuckJob
    }

    /// Makes the run's root task on the calling thread and returns its first job, held for the
    /// driver; fails when a job of an abandoned run still runs.
    private func makeRootHere(
      policy: HopPolicy, _ body: @escaping @Sendable () async -> Void
    ) -> Result<RunState.CapturedJob, EarlierRunStuck> {
      condition.lock()
      if var earlier = abandonedJob {
        condition.unlock()
        earlier.ofEarlierRun = true
        return .failure(EarlierRunStuck(job: earlier))
      }
      rootMaker = Self.threadID()
      condition.unlock()
      Self.makeRoot(policy: policy, body)
      condition.lock()
      let rootJob = pendingRoot
      pendingRoot = nil
      rootMaker = 0
      condition.unlock()
      guard let rootJob else { preconditionFailure("the root task's first job was not enqueued on its creation") }
      return .success(rootJob)
    }

    /// Makes the run's root task, which runs `body` and then tells the driver the root is done.
    ///
    /// The root prefers the harness's task executor, and its structured children inherit the
    /// preference: the runtime then never continues such a task inline when it leaves an actor
    /// (`swift_task_switch` only takes its fast path when the running context has no task
    /// executor, and a default actor's drain takes the drained task's preference as its own),
    /// so that hop becomes a job the strategy orders. Not detached, so that the body sees the
    /// caller's task-local values.
    ///
    /// The task lets go of `body` before it tells the driver: a run that left one-job-at-a-time
    /// learns that from another thread, and returns at once, and a caller that made `body` with
    /// `withoutActuallyEscaping` checks then that nothing holds it any more.
    static func makeRoot(policy: HopPolicy, _ body: @escaping @Sendable () async -> Void) {
      let root = RootBody(body)
      switch policy {
      case .everyHop, .arrivalsAtTheHop:
        Task(executorPreference: HarnessTaskExecutor.shared) {
          await root.run()
          RunDriver.shared.markRootDone()
        }
      case .runtimeFastPath:
        Task {
          await root.run()
          RunDriver.shared.markRootDone()
        }
      }
    }
  }

  /// A run's body, held until the root task runs it once.
  final class RootBody: Sendable {
    private let body: Mutex<(@Sendable () async -> Void)?>

    init(_ body: @escaping @Sendable () async -> Void) {
      self.body = Mutex(body)
    }

    /// Runs the body, having let go of it first.
    func run() async {
      guard let body = body.withLock({ $0.take() }) else { return }
      await body()
    }
  }

  @available(ExecutorHooks 1.0, *)
  extension RunResult {
    /// The result of a run abandoned over a job that did not return (or never started, as an
    /// earlier run's job still held the harness): nothing of it can be replayed.
    init(stuck: StuckJob) {
      self.init(
        outcome: .stuck(stuck), choices: ChoiceLog(), trace: Trace(), virtualTime: 0, strategySummary: nil,
        inlineHopTasks: [])
    }
  }

  /// The strategy going to the driver thread and the result coming back.
  // Safety proof for `@unchecked Sendable`: `strategy` is read by the driver thread once, before
  // it runs, while the calling thread only waits; `result` and the final strategy are written
  // by the driver thread under `condition` and read by the calling thread under it, after
  // `done` is set. A caller that gives up never reads them again.
  @available(ExecutorHooks 1.0, *)
  final class RunHandOff<Strategy: ScheduleStrategy>: @unchecked Sendable {
    let strategy: Strategy
    private let condition = NSCondition()
    private var outcome: (RunResult, Strategy)?

    init(strategy: Strategy) {
      self.strategy = strategy
    }

    private var stored: (RunResult, Strategy)?

    /// Keeps the result, for ``finish()`` to hand over.
    func store(_ result: RunResult, strategy: Strategy) {
      condition.lock()
      stored = (result, strategy)
      condition.unlock()
    }

    /// Set once the outcome is there, for a caller that looks before it sleeps.
    private let done = Atomic<Bool>(false)

    /// Hands the stored result to the waiting caller.
    func finish() {
      condition.lock()
      outcome = stored
      stored = nil
      done.store(true, ordering: .releasing)
      condition.signal()
      condition.unlock()
    }

    /// The result, if the run ended within `seconds`.
    ///
    /// Most runs take microseconds, less than waking a sleeping thread takes on a virtual
    /// machine: the caller first looks for the result for a few microseconds before it sleeps.
    func wait(seconds: Double) -> (RunResult, Strategy)? {
      for _ in 0..<DriverThread.spins where !done.load(ordering: .acquiring) {
        DriverThread.pause()
      }
      condition.lock()
      defer { condition.unlock() }
      if outcome == nil { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
      return outcome
    }
  }

  /// The thread that drives watched runs, one run after another; replaced when a run is
  /// abandoned over a job that did not return (the old thread stays in that job).
  // Safety proof for `@unchecked Sendable`: `work` and `retired` are read and written only under
  // `condition`, and a work item, once taken, is run by this thread alone; `id` is written once by the thread itself before `started` is signalled, and
  // read by others only after they saw `started`.
  @available(ExecutorHooks 1.0, *)
  final class DriverThread: @unchecked Sendable {
    private let condition = NSCondition()
    /// Not `@Sendable`: a run's work captures its strategy, which need not be. It is run by this
    /// thread alone, while the thread that handed it over only waits (see `RunHandOff`).
    private var work: (() -> Void)?
    private var then: (() -> Void)?
    private var retired = false
    private var started = false
    /// Set with `work`, for the thread to look at before it sleeps.
    private let hasWork = Atomic<Bool>(false)

    /// How many times a thread looks for a hand-over before it sleeps (some tens of microseconds).
    static let spins = 400

    /// A short pause between two looks.
    @inline(__always)
    static func pause() {
      sched_yield()
    }
    /// The thread's `pthread_t`, as ``RunDriver/threadID()`` gives it.
    private(set) var id: UInt = 0

    private static let shared = Mutex<DriverThread?>(nil)

    /// The driver thread, started on first use or after the last one was retired.
    static func current() -> DriverThread {
      shared.withLock { current in
        if let current { return current }
        let thread = DriverThread()
        thread.start()
        current = thread
        return thread
      }
    }

    /// Leaves `thread` to the job it is in: later runs get a new thread.
    static func retire(_ thread: DriverThread) {
      shared.withLock { current in
        if current === thread { current = nil }
      }
      thread.condition.lock()
      thread.retired = true
      thread.condition.unlock()
    }

    private func start() {
      let thread = Thread { [self] in
        condition.lock()
        id = RunDriver.threadID()
        started = true
        condition.broadcast()
        while true {
          if work == nil && !retired {
            // The next run usually comes within microseconds of the last: look for it a little
            // while before sleeping, which would cost a wake-up per run.
            condition.unlock()
            for _ in 0..<Self.spins where !hasWork.load(ordering: .acquiring) { Self.pause() }
            condition.lock()
          }
          while work == nil && !retired { condition.wait() }
          hasWork.store(false, ordering: .relaxed)
          guard work != nil else { break }
          let finish = then
          do {
            let next = work!
            work = nil
            then = nil
            condition.unlock()
            next()
          }
          // `next` and what it captured are released: now the caller may go on.
          finish?()
          condition.lock()
          if retired { break }
        }
        condition.unlock()
      }
      thread.name = "QueueTesting driver"
      // As much stack as a thread of the cooperative pool, which drives unwatched runs.
      thread.stackSize = 8 << 20
      thread.start()
      condition.lock()
      while !started { condition.wait() }
      condition.unlock()
    }

    /// Runs `body` on this thread, then, once `body` and everything it captured are released,
    /// `then`.
    func perform(_ body: @escaping () -> Void, then: @escaping () -> Void) {
      condition.lock()
      precondition(work == nil, "a driver thread takes one run at a time")
      work = body
      self.then = then
      hasWork.store(true, ordering: .releasing)
      condition.signal()
      condition.unlock()
    }
  }
#endif
