#if compiler(>=6.3)
  import Foundation

  /// The state machine of the controlled executor: what the active run holds and what to do next.
  ///
  /// A value type whose methods decide (hold or forward a job, which job runs next, when the run
  /// ends) and return the decision; ``RunLoopCore`` holds it behind its lock and carries the
  /// decisions out (running jobs, waiting for outside wake-ups). Keeping all of it in one value
  /// also means one exclusivity check per locked section instead of one per field.
  struct RunState {
    struct HeldJob {
      let job: UnownedJob
      /// The run-local id of the job's task (0: none).
      let task: Int
      let source: Trace.Event.Source

      var isMain: Bool { source == .main }
    }

    struct Timer {
      let deadline: UInt64
      let sequence: UInt64
      let job: HeldJob
    }

    /// Where a job enqueued by the runtime goes.
    enum Capture: Equatable {
      /// The run holds it; `signal` when it came from another thread (the driver may wait for it).
      case held(signal: Bool)
      /// Not the run's: the platform runs it.
      case forward
      /// A job of an abandoned task: never run.
      case drop
    }

    /// What the driver does next.
    enum Step {
      /// Run this job, without the lock.
      case run(HeldJob)
      /// Nothing is runnable, but a declared outside wake-up may bring a job: wait for it.
      case waitForOutsideWakeUp
      /// The run is over.
      case end(RunResult.Outcome)
    }

    /// Virtual delays are rounded up to this quantum (1 ms), so a sleep's deadline does not depend
    /// on the real microseconds that passed while it was set up.
    static let timerQuantum: UInt64 = 1_000_000

    /// The thread driving the active run; nil between runs.
    private(set) var driver: pthread_t?
    /// Tasks of runs that ended without finishing their root (deadlock, step budget, missing
    /// outside wake-up). Their jobs are dropped, never run: the code they would resume belongs to
    /// a run that is over, and may hold closures whose scope has ended.
    private var abandonedTasks = Set<UInt64>()
    private var localTaskIDs: [UInt64: Int] = [:]
    /// A direct-mapped cache in front of `localTaskIDs`, by the runtime id's low bits: the runtime
    /// numbers tasks consecutively, so a run's live tasks rarely share a slot, and the lookup for
    /// every captured job (a resumption, a yield) costs no hashing.
    private var recentTasks = [(taskID: UInt64, local: Int)](repeating: (0, 0), count: RunState.recentTaskSlots)
    private static let recentTaskSlots = 64
    private(set) var ready: [HeldJob] = []
    private var timers: [Timer] = []
    private var sequence: UInt64 = 0
    private(set) var now: UInt64 = 0
    var rootDone = false
    /// Outside wake-ups the code under test said to expect, oldest first, by label.
    private(set) var expectedOutsideWakeUps: [String] = []
    var trace = Trace()
    var ledger = WaitLedger()
    /// Numbers runs, so that an item token of an earlier run is never taken for one of this run.
    private(set) var generation: UInt64 = 0
    private var choices = ChoiceLog()

    /// Starts a run driven by `thread`.
    mutating func begin(driver thread: pthread_t) {
      driver = thread
      localTaskIDs = [:]
      recentTasks = Array(repeating: (0, 0), count: Self.recentTaskSlots)
      ready = []
      timers = []
      sequence = 0
      now = 0
      rootDone = false
      expectedOutsideWakeUps = []
      trace = Trace()
      ledger = WaitLedger()
      generation &+= 1
      choices = ChoiceLog()
    }

    /// Whether a run is active.
    var isActive: Bool { driver != nil }

    /// Whether `thread` drives the active run.
    func isDriver(_ thread: pthread_t) -> Bool {
      guard let driver else { return false }
      return pthread_equal(driver, thread) != 0
    }

    /// Decides about a job enqueued on `thread` for the task `taskID` (0: no task).
    ///
    /// A job belongs to the run when it is enqueued by a job that runs on the driver thread (a new
    /// task, a resumption, a yield), or when its task already belongs to the run (a continuation
    /// resumed from another thread). Everything else (tests running in parallel, the runtime's own
    /// work) is forwarded, so concurrent tests are never captured.
    mutating func capture(_ job: UnownedJob, taskID: UInt64, on thread: pthread_t, source: RunLoopCore.Source)
      -> Capture
    {
      let onDriver = isDriver(thread)
      guard isActive, onDriver || (taskID != 0 && owns(taskID)) else {
        return taskID != 0 && !abandonedTasks.isEmpty && abandonedTasks.contains(taskID) ? .drop : .forward
      }
      if !onDriver && !expectedOutsideWakeUps.isEmpty {
        expectedOutsideWakeUps.removeFirst()
      }
      hold(job, taskID: taskID, source: source)
      // Only a job from another thread can find the driver waiting for it.
      return .held(signal: !onDriver)
    }

    /// Holds a job of the run: one the driver thread enqueued, or one ``capture(_:taskID:on:source:)``
    /// found to be the run's.
    mutating func hold(_ job: UnownedJob, taskID: UInt64, source: RunLoopCore.Source) {
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
    }

    /// Declares an outside wake-up; false unless `thread` drives the active run.
    mutating func expectOutsideWakeUp(_ label: String, on thread: pthread_t) -> Bool {
      guard isDriver(thread) else { return false }
      expectedOutsideWakeUps.append(label)
      return true
    }

    /// The run-local id of a runtime task id, assigned on first sight.
    mutating func localID(of taskID: UInt64) -> Int {
      guard taskID != 0 else { return 0 }
      let slot = Self.recentSlot(of: taskID)
      if recentTasks[slot].taskID == taskID { return recentTasks[slot].local }
      let local: Int
      if let known = localTaskIDs[taskID] {
        local = known
      } else {
        local = localTaskIDs.count + 1
        localTaskIDs[taskID] = local
      }
      recentTasks[slot] = (taskID, local)
      return local
    }

    private static func recentSlot(of taskID: UInt64) -> Int {
      Int(truncatingIfNeeded: taskID) & (recentTaskSlots - 1)
    }

    /// Whether the task `taskID` (not 0) belongs to the active run.
    private func owns(_ taskID: UInt64) -> Bool {
      let slot = Self.recentSlot(of: taskID)
      return recentTasks[slot].taskID == taskID || localTaskIDs[taskID] != nil
    }

    /// Picks what the driver does next: run a job the strategy chooses, wait for a declared
    /// outside wake-up, or end the run (the root finished and nothing is left to run, a
    /// deadlock, the step budget).
    mutating func nextStep<Strategy: ScheduleStrategy>(strategy: inout Strategy, stepBudget: Int) -> Step {
      // An expected outside wake-up comes before virtual time moves on: something is about to
      // become runnable.
      if ready.isEmpty && !rootDone && !expectedOutsideWakeUps.isEmpty {
        return .waitForOutsideWakeUp
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
      // up its turn, say), so that no state shared across runs, like `MainActor.queue`, is left
      // mid-step. Pending timers are not waited for.
      if ready.isEmpty {
        return .end(rootDone ? .completed : .deadlocked(deadlockReport()))
      }
      if trace.stepCount >= stepBudget {
        return .end(.stepBudgetExceeded(steps: trace.stepCount))
      }
      var index = 0
      if ready.count > 1 {
        index = min(max(strategy.choose(runnableTasks: ready.lazy.map(\.task)), 0), ready.count - 1)
        choices.append(choice: index, branching: ready.count)
      }
      let next = ready.remove(at: index)
      trace.appendRan(task: next.task, source: next.source, virtualTime: now)
      return .run(next)
    }

    private func deadlockReport() -> DeadlockReport {
      let trace = self.trace
      let (blocked, cycle, never, awaitingFinish) = ledger.analyze(label: { trace.label(ofTask: $0) })
      return DeadlockReport(
        blockedTasks: blocked, cycle: cycle, itemsNeverStarted: never, taskCount: localTaskIDs.count,
        steps: trace.stepCount, virtualTime: now, lastEvents: trace.lastEvents(10),
        itemsAwaitingFinish: awaitingFinish)
    }

    /// Ends the run and returns its result. A run that completed may leave timers behind: they
    /// are returned to be handed to the platform, as they no longer belong to a run. A run that
    /// did not complete abandons its tasks: whatever they still hold, or are woken for later, is
    /// never run.
    mutating func end(
      _ outcome: RunResult.Outcome, strategySummary: String?
    ) -> (leftovers: [HeldJob], result: RunResult) {
      driver = nil
      let abandoned = outcome != .completed
      if abandoned { abandonedTasks.formUnion(localTaskIDs.keys) }
      let leftovers = abandoned ? [] : ready + timers.map(\.job)
      ready = []
      timers = []
      let result = RunResult(
        outcome: outcome, choices: choices, trace: trace,
        virtualTime: now, strategySummary: strategySummary)
      trace = Trace()
      choices = ChoiceLog()
      return (leftovers, result)
    }
  }
#endif
