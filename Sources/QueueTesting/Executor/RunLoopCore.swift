#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation
  import Synchronization

  /// The runtime's id of the task a job belongs to (0 for a job that is not a task). The standard
  /// library reads it the same way; the runtime exports the symbol, and no public API offers it.
  @_silgen_name("swift_task_getJobTaskId")
  private func runtimeTaskID(of job: UnownedJob) -> UInt64

  /// The process-wide harness: the lock around the active run's ``RunState`` and the driver loop
  /// that carries out its decisions.
  ///
  /// All mutable state is in the ``RunState`` (and `installed`), guarded by `condition` (a pthread
  /// mutex and condition variable); only the driver thread runs captured jobs. Jobs that the
  /// driver's own jobs enqueue wait in `driverCaptures` until the driver next takes the lock,
  /// which spares every step a lock round trip.
  // Safety proof for `@unchecked Sendable`: the state (`statePointer.pointee`) and `installed` are
  // read and written only while `condition` is locked (through `withState`, and in `run`);
  // `runSlot` serializes whole runs. `driverCaptures.pointee` is read and written only by the
  // thread whose id is in `driverThread`: a thread finds its own id there only between the moment
  // it stored it (as it began driving a run, with `condition` locked) and the moment it cleared
  // it (as the run ended, with `condition` locked, after emptying the buffer); any other thread
  // reads another id or 0. The lock orders one driver's last access before the next driver's first.
  final class RunLoopCore: @unchecked Sendable {  // safe: proof just above
    static let shared = RunLoopCore()

    enum Source: Equatable {
      case global
      case main
      case timer(delay: UInt64)
    }

    private let condition = NSCondition()
    private let runSlot = NSLock()
    private var installed = false
    /// The state, in memory of its own rather than a stored property: the lock already makes each
    /// access exclusive, and a stored property of a class would add a dynamic exclusivity check to
    /// every locked section (measured at several percent of a yield-heavy run).
    private let statePointer: UnsafeMutablePointer<RunState> = {
      let pointer = UnsafeMutablePointer<RunState>.allocate(capacity: 1)
      pointer.initialize(to: RunState())
      return pointer
    }()

    /// The id of the thread driving the active run (see `threadID`), 0 between runs: lets a
    /// capture on the driver thread skip the lock.
    private let driverThread = Atomic<UInt>(0)
    /// Jobs enqueued on the driver thread since the driver last took the lock, oldest first; see
    /// the safety proof above. Handed to the state, in order, before the state is next read.
    private let driverCaptures: UnsafeMutablePointer<DriverCaptures> = {
      let pointer = UnsafeMutablePointer<DriverCaptures>.allocate(capacity: 1)
      pointer.initialize(to: DriverCaptures())
      return pointer
    }()

    /// A list of captures in memory of its own: an array here would pay a uniqueness check and a
    /// retain per job, and emptying one with its capacity kept is a general range replacement
    /// (measured: more than the lock round trip this list saves).
    private struct DriverCaptures {
      struct Capture {
        let job: UnownedJob
        let taskID: UInt64
        let source: Source
      }

      private var base = UnsafeMutablePointer<Capture>.allocate(capacity: 16)
      private var capacity = 16
      private(set) var count = 0

      @inline(__always)
      mutating func append(_ capture: Capture) {
        if count == capacity { grow() }
        (base + count).initialize(to: capture)
        count += 1
      }

      private mutating func grow() {
        let larger = UnsafeMutablePointer<Capture>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
      }

      /// Passes each capture to `body`, oldest first, and empties the list.
      @inline(__always)
      mutating func drain(_ body: (Capture) -> Void) {
        for index in 0..<count { body(base[index]) }
        // Captures are plain values (a job pointer and numbers): nothing to deinitialize.
        count = 0
      }

      func deallocate() {
        base.deallocate()
      }
    }

    deinit {
      statePointer.deinitialize(count: 1)
      statePointer.deallocate()
      driverCaptures.pointee.deallocate()
      driverCaptures.deinitialize(count: 1)
      driverCaptures.deallocate()
    }

    /// The calling thread's id as a number (never 0 for a running thread).
    @inline(__always)
    private static func threadID() -> UInt {
      #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
      #else
        UInt(pthread_self())
      #endif
    }

    /// Whether the calling thread drives the active run, without the lock (see `driverThread`).
    @inline(__always)
    private var isOnDriverThread: Bool {
      driverThread.load(ordering: .relaxed) == Self.threadID()
    }

    /// Hands the driver's buffered captures to the state, in the order they came. Called by the
    /// driver thread with `condition` locked.
    @inline(__always)
    private func holdDriverCaptures() {
      guard driverCaptures.pointee.count > 0 else { return }
      driverCaptures.pointee.drain { capture in
        statePointer.pointee.hold(capture.job, taskID: capture.taskID, source: capture.source)
      }
    }

    /// The runtime's "generic" executor (identity 0): what the platform passes when it runs a
    /// global job. No public API constructs it; the two-word layout is the ABI of
    /// `UnownedSerialExecutor`.
    private static let genericExecutor = unsafeBitCast((Int(0), Int(0)), to: UnownedSerialExecutor.self)

    /// The executors jobs run on, read once per run rather than through a lazily initialized
    /// static per job.
    private struct RunExecutors {
      let generic = RunLoopCore.genericExecutor
      let main = HarnessMainExecutor.shared.asUnownedSerialExecutor()
    }

    /// Runs `body` on the state with `condition` locked: one access to the state per section.
    /// On the driver thread, the jobs it captured since it last held the lock are held first, so
    /// the state is exactly what it would be had each capture taken the lock.
    @inline(__always)
    private func withState<Result>(_ body: (inout RunState) -> Result) -> Result {
      condition.lock()
      defer { condition.unlock() }
      if isOnDriverThread { holdDriverCaptures() }
      return body(&statePointer.pointee)
    }

    var isDriverThread: Bool {
      let thread = pthread_self()
      return withState { $0.isDriver(thread) }
    }

    /// Holds `job` if it belongs to the active run; returns false if the caller must forward it.
    /// See ``RunState/capture(_:taskID:on:source:)``.
    func capture(_ job: UnownedJob, source: Source) -> Bool {
      let taskID = runtimeTaskID(of: job)
      if isOnDriverThread {
        // A job enqueued by the driver's own job always belongs to the run (see
        // `RunState.capture`); it is held when the driver next takes the lock, before anything
        // reads the state.
        driverCaptures.pointee.append(.init(job: job, taskID: taskID, source: source))
        return true
      }
      let thread = pthread_self()
      condition.lock()
      defer { condition.unlock() }
      switch statePointer.pointee.capture(job, taskID: taskID, on: thread, source: source) {
      case .held(let signal):
        if signal { condition.signal() }
        return true
      case .drop:
        return true
      case .forward:
        return false
      }
    }

    /// Declares that a job of the active run will arrive from another thread; returns false when
    /// no run is active on the calling thread.
    func expectOutsideWakeUp(_ label: String) -> Bool {
      let thread = pthread_self()
      return withState { $0.expectOutsideWakeUp(label, on: thread) }
    }

    /// The runtime id of the current task (0 outside a task).
    private static func currentTaskID() -> UInt64 {
      withUnsafeCurrentTask { task in
        // `UnsafeCurrentTask` and `UnownedJob` are both one pointer to the task object (a task
        // is a job); the runtime reads the id from it.
        task.map { runtimeTaskID(of: unsafeBitCast($0, to: UnownedJob.self)) } ?? 0
      }
    }

    /// Records an event of the current task if it belongs to the active run and happens on the
    /// driver thread; `update` gets the ledger, the task and the run's generation (which item
    /// tokens carry), may change the ledger, and returns the event's kind (nil: none).
    /// Returns the run-local task id, or nil when the event is not the run's.
    @discardableResult
    private func recordFromCurrentTask(
      _ update: (inout WaitLedger, _ task: Int, _ generation: UInt64) -> Trace.Event.Kind?
    ) -> Int? {
      let taskID = Self.currentTaskID()
      let name = Task.name
      let thread = pthread_self()
      return withState { state in
        guard state.isDriver(thread) else { return nil }
        let task = state.localID(of: taskID)
        if let name, state.trace.taskNames[task] == nil { state.trace.taskNames[task] = name }
        if let kind = update(&state.ledger, task, state.generation) {
          state.trace.append(Trace.Event(step: state.trace.stepCount, task: task, kind: kind, virtualTime: state.now))
        }
        return task
      }
    }

    func itemEnqueued(on queue: QueueDescription, waiting: Bool) -> UInt64? {
      var token: UInt64?
      recordFromCurrentTask { ledger, task, generation in
        let (index, item) = ledger.enqueue(on: queue, by: task, waiting: waiting)
        token = generation << 32 | UInt64(index)
        return .enqueued(item, waiting: waiting)
      }
      return token
    }

    func itemStarted(_ token: UInt64) {
      recordFromCurrentTask { ledger, task, generation in
        guard token >> 32 == generation else { return nil }
        return ledger.start(Int(token & 0xFFFF_FFFF), in: task).map { .started($0) }
      }
    }

    func itemFinished(_ token: UInt64) {
      recordFromCurrentTask { ledger, _, generation in
        guard token >> 32 == generation else { return nil }
        return ledger.finish(Int(token & 0xFFFF_FFFF)).map { .finished($0) }
      }
    }

    /// Records that the current task is about to wait at `label`; false outside a run.
    @discardableResult
    func beginNamedWait(_ label: String) -> Bool {
      recordFromCurrentTask { ledger, task, _ in
        ledger.beginWait(label, task: task)
        return .waits(label)
      } != nil
    }

    func endNamedWait() {
      recordFromCurrentTask { ledger, task, _ in
        ledger.endWait(task: task)
        return nil
      }
    }

    /// Records a mark of code under test; false outside a run (or off the driver thread).
    @discardableResult
    func mark(_ label: String) -> Bool {
      recordFromCurrentTask { _, _, _ in .mark(label) } != nil
    }

    /// The trace of the active run so far, when called from its driver thread; nil otherwise.
    var traceSoFar: Trace? {
      let thread = pthread_self()
      return withState { $0.isDriver(thread) ? $0.trace : nil }
    }

    /// The active run's virtual time, or nil outside a run.
    var virtualNow: UInt64? {
      withState { $0.isActive ? $0.now : nil }
    }

    func markRootDone() {
      withState { $0.rootDone = true }
    }

    /// Runs `body` under control on the calling thread, which becomes the driver, and returns when
    /// the root task finished, the run deadlocked, or the step budget ran out.
    func run<Strategy: ScheduleStrategy>(
      strategy: inout Strategy,
      stepBudget: Int,
      outsideWakeUpTimeout: Duration,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      runSlot.lock()
      defer { runSlot.unlock() }

      condition.lock()
      if !installed {
        // Once per process, before the first run: other threads read the factory, so it is never
        // swapped back; outside a run the harness executors forward everything.
        _createExecutors(factory: HarnessExecutorFactory.self)
        QueueObservation.install(HarnessQueueObserver())
        installed = true
      }
      statePointer.pointee.begin(driver: pthread_self())
      driverThread.store(Self.threadID(), ordering: .relaxed)
      condition.unlock()

      // Enqueued from the driver thread while the run is active: captured as the root task. Not
      // detached, so that the body sees the caller's task-local values (Swift Testing's current
      // test and issue handlers among them).
      Task {
        await body()
        RunLoopCore.shared.markRootDone()
      }

      let executors = RunExecutors()
      condition.lock()
      holdDriverCaptures()
      var outcome = RunResult.Outcome.completed
      loop: while true {
        switch statePointer.pointee.nextStep(strategy: &strategy, stepBudget: stepBudget) {
        case .run(let next):
          condition.unlock()
          next.job.runSynchronously(on: next.isMain ? executors.main : executors.generic)
          condition.lock()
          holdDriverCaptures()
        case .waitForOutsideWakeUp:
          // Waiting is bounded in real time; a wake-up that never comes is its own outcome, not a
          // deadlock.
          let (seconds, attoseconds) = outsideWakeUpTimeout.components
          let limit = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
          if !condition.wait(until: limit) && statePointer.pointee.ready.isEmpty {
            outcome = .outsideWakeUpNeverCame(statePointer.pointee.expectedOutsideWakeUps)
            break loop
          }
        case .end(let end):
          outcome = end
          break loop
        }
      }
      holdDriverCaptures()
      driverThread.store(0, ordering: .relaxed)
      let (leftovers, result) = statePointer.pointee.end(outcome, strategySummary: strategy.summary)
      condition.unlock()
      for held in leftovers {
        if held.isMain {
          HarnessMainExecutor.forward(held.job)
        } else {
          PlatformExecutorFactory.defaultExecutor.enqueue(ExecutorJob(held.job))
        }
      }
      return result
    }
  }
#endif
