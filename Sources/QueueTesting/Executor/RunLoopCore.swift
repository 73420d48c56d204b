#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation

  /// The runtime's id of the task a job belongs to (0 for a job that is not a task). The standard
  /// library reads it the same way; the runtime exports the symbol, and no public API offers it.
  @_silgen_name("swift_task_getJobTaskId")
  private func runtimeTaskID(of job: UnownedJob) -> UInt64

  /// The process-wide state of the harness: the active run's held jobs, its timers and virtual
  /// clock, and the driver loop.
  ///
  /// All mutable state is guarded by `condition` (a pthread mutex and condition variable), and
  /// only the driver thread runs captured jobs.
  // Safety proof for `@unchecked Sendable`: every stored `var` below is read and written only while
  // `condition` is locked (see `capture`, `isDriverThread`, `markRootDone` and the loop in `run`);
  // `runSlot` serializes whole runs.
  final class RunLoopCore: @unchecked Sendable {  // safe: proof just above
    static let shared = RunLoopCore()

    enum Source: Equatable {
      case global
      case main
      case timer(delay: UInt64)
    }

    private struct HeldJob {
      let job: UnownedJob
      let task: Int
      let source: Trace.Event.Source

      var isMain: Bool { source == .main }
    }

    private struct Timer {
      let deadline: UInt64
      let sequence: UInt64
      let job: HeldJob
    }

    private let condition = NSCondition()
    private let runSlot = NSLock()
    private var installed = false
    private var active = false
    private var driver: pthread_t?
    private var ownedTasks = Set<UInt64>()
    /// Tasks of runs that ended without finishing their root (deadlock, step budget, missing
    /// outside wake-up). Their jobs are dropped, never run: the code they would resume belongs to
    /// a run that is over, and may hold closures whose scope has ended.
    private var abandonedTasks = Set<UInt64>()
    private var localTaskIDs: [UInt64: Int] = [:]
    private var ready: [HeldJob] = []
    private var timers: [Timer] = []
    private var sequence: UInt64 = 0
    private var now: UInt64 = 0
    private var rootDone = false
    /// Outside wake-ups the code under test said to expect, oldest first, by label.
    private var expectedOutsideWakeUps: [String] = []
    private var trace = Trace()
    private var ledger = WaitLedger()
    /// Numbers runs, so that an item token of an earlier run is never taken for one of this run.
    private var generation: UInt64 = 0

    /// Virtual delays are rounded up to this quantum (1 ms), so a sleep's deadline does not depend
    /// on the real microseconds that passed while it was set up.
    private static let timerQuantum: UInt64 = 1_000_000

    /// The runtime's "generic" executor (identity 0): what the platform passes when it runs a
    /// global job. No public API constructs it; the two-word layout is the ABI of
    /// `UnownedSerialExecutor`.
    private static let genericExecutor = unsafeBitCast((Int(0), Int(0)), to: UnownedSerialExecutor.self)

    var isDriverThread: Bool {
      condition.lock()
      defer { condition.unlock() }
      return isDriverLocked
    }

    /// Holds `job` if it belongs to the active run; returns false if the caller must forward it.
    ///
    /// A job belongs to the run when it is enqueued by a job that runs on the driver thread (a new
    /// task, a resumption, a yield), or when its task already belongs to the run (a continuation
    /// resumed from another thread). Everything else (tests running in parallel, the runtime's own
    /// work) is forwarded, so concurrent tests are never captured.
    func capture(_ job: UnownedJob, source: Source) -> Bool {
      let taskID = runtimeTaskID(of: job)
      condition.lock()
      defer { condition.unlock() }
      let onDriver = isDriverLocked
      guard active, onDriver || (taskID != 0 && ownedTasks.contains(taskID)) else {
        // Held forever (true), not forwarded: see `abandonedTasks`.
        return taskID != 0 && !abandonedTasks.isEmpty && abandonedTasks.contains(taskID)
      }
      if !onDriver && !expectedOutsideWakeUps.isEmpty {
        expectedOutsideWakeUps.removeFirst()
      }
      let local = localID(of: taskID)
      switch source {
      case .global:
        ready.append(HeldJob(job: job, task: local, source: .global))
      case .main:
        ready.append(HeldJob(job: job, task: local, source: .main))
      case .timer(let delay):
        let rounded = (delay + Self.timerQuantum - 1) / Self.timerQuantum * Self.timerQuantum
        let held = HeldJob(job: job, task: local, source: .timer)
        timers.append(Timer(deadline: now &+ rounded, sequence: sequence, job: held))
      }
      sequence += 1
      // Only a job from another thread can find the driver waiting for it.
      if !onDriver { condition.signal() }
      return true
    }

    /// Declares that a job of the active run will arrive from another thread; returns false when
    /// no run is active on the calling thread.
    func expectOutsideWakeUp(_ label: String) -> Bool {
      condition.lock()
      defer { condition.unlock() }
      guard active, let driver, pthread_equal(driver, pthread_self()) != 0 else { return false }
      expectedOutsideWakeUps.append(label)
      return true
    }

    /// Whether the calling thread drives the active run. Call with `condition` locked.
    private var isDriverLocked: Bool {
      guard active, let driver else { return false }
      return pthread_equal(driver, pthread_self()) != 0
    }

    /// The run-local id of a runtime task id, assigned on first sight. Call with `condition` locked.
    private func localID(of taskID: UInt64) -> Int {
      guard taskID != 0 else { return 0 }
      if let known = localTaskIDs[taskID] { return known }
      ownedTasks.insert(taskID)
      let local = localTaskIDs.count + 1
      localTaskIDs[taskID] = local
      return local
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
    /// driver thread; `update` may change the ledger and returns the event's kind (nil: none).
    /// Returns the run-local task id, or nil when the event is not the run's.
    @discardableResult
    private func recordFromCurrentTask(_ update: (inout WaitLedger, Int) -> Trace.Event.Kind?) -> Int? {
      let taskID = Self.currentTaskID()
      let name = Task.name
      condition.lock()
      defer { condition.unlock() }
      guard isDriverLocked else { return nil }
      let task = localID(of: taskID)
      if let name, trace.taskNames[task] == nil { trace.taskNames[task] = name }
      if let kind = update(&ledger, task) {
        trace.append(Trace.Event(step: trace.stepCount, task: task, kind: kind, virtualTime: now))
      }
      return task
    }

    func itemEnqueued(on queue: QueueDescription, waiting: Bool) -> UInt64? {
      var token: UInt64?
      recordFromCurrentTask { ledger, task in
        let (index, item) = ledger.enqueue(on: queue, by: task, waiting: waiting)
        token = self.generation << 32 | UInt64(index)
        return .enqueued(item, waiting: waiting)
      }
      return token
    }

    func itemStarted(_ token: UInt64) {
      recordFromCurrentTask { ledger, task in
        guard token >> 32 == self.generation else { return nil }
        return ledger.start(Int(token & 0xFFFF_FFFF), in: task).map { .started($0) }
      }
    }

    func itemFinished(_ token: UInt64) {
      recordFromCurrentTask { ledger, _ in
        guard token >> 32 == self.generation else { return nil }
        return ledger.finish(Int(token & 0xFFFF_FFFF)).map { .finished($0) }
      }
    }

    /// Records that the current task is about to wait at `label`; false outside a run.
    @discardableResult
    func beginNamedWait(_ label: String) -> Bool {
      recordFromCurrentTask { ledger, task in
        ledger.beginWait(label, task: task)
        return .waits(label)
      } != nil
    }

    func endNamedWait() {
      recordFromCurrentTask { ledger, task in
        ledger.endWait(task: task)
        return nil
      }
    }

    /// Records a mark of code under test; false outside a run (or off the driver thread).
    @discardableResult
    func mark(_ label: String) -> Bool {
      recordFromCurrentTask { _, _ in .mark(label) } != nil
    }

    /// The trace of the active run so far, when called from its driver thread; nil otherwise.
    var traceSoFar: Trace? {
      condition.lock()
      defer { condition.unlock() }
      return isDriverLocked ? trace : nil
    }

    /// The active run's virtual time, or nil outside a run.
    var virtualNow: UInt64? {
      condition.lock()
      defer { condition.unlock() }
      return active ? now : nil
    }

    func markRootDone() {
      condition.lock()
      rootDone = true
      condition.unlock()
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
      active = true
      driver = pthread_self()
      ownedTasks = []
      localTaskIDs = [:]
      ready = []
      timers = []
      sequence = 0
      now = 0
      rootDone = false
      expectedOutsideWakeUps = []
      trace = Trace()
      ledger = WaitLedger()
      generation &+= 1
      condition.unlock()

      // Enqueued from the driver thread while the run is active: captured as the root task. Not
      // detached, so that the body sees the caller's task-local values (Swift Testing's current
      // test and issue handlers among them).
      Task {
        await body()
        RunLoopCore.shared.markRootDone()
      }

      var choices: [Int] = []
      var branching: [Int] = []
      var outcome = RunResult.Outcome.completed
      while true {
        condition.lock()
        // An expected outside wake-up comes before virtual time moves on: something is about to
        // become runnable. Waiting is bounded in real time; a wake-up that never comes is its own
        // outcome, not a deadlock.
        var missing: [String] = []
        while ready.isEmpty && !rootDone && !expectedOutsideWakeUps.isEmpty {
          let (seconds, attoseconds) = outsideWakeUpTimeout.components
          let limit = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
          if !condition.wait(until: limit) && ready.isEmpty {
            missing = expectedOutsideWakeUps
            break
          }
        }
        if !missing.isEmpty {
          outcome = .outsideWakeUpNeverCame(missing)
          condition.unlock()
          break
        }
        if ready.isEmpty && !rootDone, let earliest = timers.min(by: { $0.deadline < $1.deadline })?.deadline {
          // Nothing can run: advance virtual time to the next timer. Timers due together become
          // runnable in the order they were set, and the strategy orders them from there.
          now = earliest
          let due = timers.filter { $0.deadline == earliest }.sorted { $0.sequence < $1.sequence }
          timers.removeAll { $0.deadline == earliest }
          ready += due.map(\.job)
        }
        // After the root finished, the jobs it left runnable still run (a queue's drainer giving
        // up its turn, say), so that no state shared across runs, like `MainActor.queue`, is
        // left mid-step. Pending timers are not waited for.
        if ready.isEmpty {
          if !rootDone {
            let trace = self.trace
            let (blocked, cycle, never) = ledger.analyze(label: { trace.label(ofTask: $0) })
            outcome = .deadlocked(
              DeadlockReport(
                blockedTasks: blocked, cycle: cycle, itemsNeverStarted: never, taskCount: localTaskIDs.count,
                steps: trace.stepCount, virtualTime: now, lastEvents: trace.lastEvents(10)))
          }
          condition.unlock()
          break
        }
        if trace.stepCount >= stepBudget {
          outcome = .stepBudgetExceeded(steps: trace.stepCount)
          condition.unlock()
          break
        }
        var index = 0
        if ready.count > 1 {
          index = min(max(strategy.choose(runnableTasks: ready.lazy.map(\.task)), 0), ready.count - 1)
          choices.append(index)
          branching.append(ready.count)
        }
        let next = ready.remove(at: index)
        trace.append(Trace.Event(step: trace.stepCount + 1, task: next.task, kind: .ran(next.source), virtualTime: now))
        condition.unlock()

        if next.isMain {
          next.job.runSynchronously(on: HarnessMainExecutor.shared.asUnownedSerialExecutor())
        } else {
          next.job.runSynchronously(on: Self.genericExecutor)
        }
      }

      condition.lock()
      active = false
      driver = nil
      // A run that completed may leave timers behind: they go back to the platform, as they no
      // longer belong to a run. A run that did not complete abandons its tasks: whatever they
      // still hold, or are woken for later, is never run (see `abandonedTasks`).
      let abandoned = outcome != .completed
      if abandoned { abandonedTasks.formUnion(ownedTasks) }
      let leftovers = abandoned ? [] : ready + timers.map(\.job)
      ready = []
      timers = []
      let virtualTime = now
      let trace = self.trace
      self.trace = Trace()
      condition.unlock()
      for held in leftovers {
        if held.isMain {
          HarnessMainExecutor.forward(held.job)
        } else {
          PlatformExecutorFactory.defaultExecutor.enqueue(ExecutorJob(held.job))
        }
      }
      return RunResult(
        outcome: outcome, schedule: Schedule(choices: choices), branching: branching, trace: trace,
        virtualTime: virtualTime, strategySummary: strategy.summary)
    }
  }
#endif
