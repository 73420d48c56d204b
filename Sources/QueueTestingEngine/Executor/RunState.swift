#if compiler(>=6.3)
  import Foundation

  /// The state machine of the controlled executor: what the active run holds and what to do next.
  ///
  /// A value type whose methods decide (which job runs next, when the run ends) and return the
  /// decision; ``RunDriver`` carries the decisions out (running jobs, waiting for outside
  /// wake-ups). Only the driver thread touches it, without a lock: what other threads share with
  /// the driver is in ``RunMailbox``. Keeping all of it in one value also means one exclusivity
  /// check per access instead of one per field.
  @available(ExecutorHooks 1.0, *)
  struct RunState {
    /// The run's tasks (see ``TaskRegistry``).
    private(set) var tasks = TaskRegistry()
    /// The jobs the strategy may choose from, in the order they became runnable. Holds at most
    /// one main-actor job: the oldest (see ``MainActorBacklog``).
    private(set) var ready: ReadyQueue
    /// Main-actor jobs behind the one in `ready` (see ``MainActorBacklog``).
    private var mainBacklog = MainActorBacklog()
    /// The run's timers, and the delay each took.
    private(set) var timers = TimerQueue()
    private(set) var now: UInt64 = 0
    var rootDone = false
    var trace = Trace()
    /// Which task's work ran on which actor (see ``ActorWork``): for the run's picture.
    var actorWork = ActorWork()
    /// The jobs run so far: `trace.stepCount`, kept here too because unoptimized builds copy the
    /// whole trace to read its count, and the driver reads it at every step.
    private(set) var steps = 0
    var ledger = WaitLedger()
    /// Numbers runs, so that an item token of an earlier run is never taken for one of this run.
    private(set) var generation: UInt64 = 0
    private var choices = ChoiceLog()
    /// Whether a default actor's processing job was held: only there can a task without the
    /// preference leave an actor inline. Also the run's cue to look for tasks it never held a
    /// job of (see ``noteCurrentTask(_:)``).
    private(set) var heldActorDrain = false

    /// The run's cancellation targets and what it did with them.
    private var cancellation = CancellationState()
    /// The tasks this run may cancel as a schedule choice; nil: none.
    var cancellationTargets: CancellationTargets? { cancellation.targets }

    /// What came from outside the harness, and when the run waits for it (see
    /// ``OutsideWorkState``).
    var outside = OutsideWorkState()

    /// The run-local id of the task whose job ran last (0 before the first job).
    private(set) var lastRanTask = 0
    /// The job that goes on with what the last step ran, once it is held (see `hold`).
    private var continuation: UnsafeRawPointer?
    /// That job's sequence number in `ready`, once it is runnable.
    private var continuationSequence: UInt64?
    /// Whether the last step ran a yield (a job that makes its task runnable again): what it
    /// wakes does not go on with anything (the task asked to let other work go first).
    private var lastRanYield = false
    /// How many tasks the run knew when it chose its last job.
    private var tasksKnownAtLastStep = 0
    /// Jobs of the run that overstayed their slice and have not returned: each goes on on its own
    /// thread, beside the jobs the driver runs (see `RunDriver+Overstay`).
    private(set) var jobsOverstaying = 0

    /// Starts a run that may cancel `cancellationTargets` as schedule choices, and waits up to
    /// `outsideWorkTimeout` for work from outside the harness when nothing else can run.
    mutating func begin(
      cancellationTargets: CancellationTargets? = nil, outsideWorkTimeout: Duration = .zero,
      replayedTimerDelays: [UInt64?] = []
    ) {
      // Every part of the state made anew, so nothing of an earlier run (nor a field added
      // later and forgotten here) survives into this one; only the run's number goes on, and the
      // ready queue, emptied, keeps its buffers (it owns them by hand: a queue made here and
      // dropped would leak them).
      ready.removeAll()
      self = RunState(
        ready: ready, generation: generation &+ 1, cancellationTargets: cancellationTargets,
        outsideWorkTimeout: outsideWorkTimeout, replayedTimerDelays: replayedTimerDelays)
    }

    /// A state with no run in it; `begin` starts each run from one.
    init(
      ready: ReadyQueue = ReadyQueue(), generation: UInt64 = 0, cancellationTargets: CancellationTargets? = nil,
      outsideWorkTimeout: Duration = .zero, replayedTimerDelays: [UInt64?] = []
    ) {
      self.ready = ready
      self.generation = generation
      cancellation = CancellationState(targets: cancellationTargets)
      outside = OutsideWorkState(timeout: outsideWorkTimeout)
      timers = TimerQueue(replayedDelays: replayedTimerDelays)
    }

    /// Holds a captured job; see ``hold(_:taskID:source:)``.
    @inline(__always)
    mutating func hold(_ captured: CapturedJob) {
      if case .timer = captured.source, captured.taskID != 0, tasks.knownID(of: captured.taskID) == nil {
        // A task first seen as a timer is `Task.sleep`'s own: it resumes the sleeper and ends.
        noteHopsAreChoices(of: localID(of: captured.taskID))
      }
      var yieldingTask = 0
      switch captured.note {
      case .plain:
        break
      case .actorDrain:
        heldActorDrain = true
      case .taskWithPreference:
        noteHopsAreChoices(of: localID(of: captured.taskID))
      case .yield(let taskID):
        // Only a task of the run's, yielding on the executors the run controls (a deprecated
        // `Task.sleep(nanoseconds:)` makes the same kind of job, as a timer).
        if case .global = captured.source, knows(taskID) { yieldingTask = localID(of: taskID) }
      }
      hold(captured.job, taskID: captured.taskID, source: captured.source, yieldingTask: yieldingTask)
    }

    /// Notes the current task (a runtime id) of a job enqueued on the driver thread, in a run that
    /// held an actor's drain: a task the run never held a job of (one a drain ran from the
    /// actor's own queue, created inside an actor method) gets a run-local id here, and with it
    /// a place among ``inlineHopTasks``: it has no task-executor preference, and may have left
    /// an actor inline, unless it has a task-executor preference (`hasPreference`).
    mutating func noteCurrentTask(_ taskID: UInt64, hasPreference: Bool) {
      guard taskID != 0, tasks.knownID(of: taskID) == nil else { return }
      let local = localID(of: taskID)
      if hasPreference { noteHopsAreChoices(of: local) }
    }

    /// Whether the task (a run-local id) is known to make every hop a scheduling point.
    mutating func hopsAreChoices(of task: Int) -> Bool { tasks.hopsAreChoices(of: task) }

    /// Records that the task (a run-local id) makes every hop a scheduling point.
    mutating func noteHopsAreChoices(of task: Int) { tasks.noteHopsAreChoices(of: task) }

    /// Run-local ids of the tasks that may leave an actor without a scheduling point: those
    /// without the harness's task-executor preference, when the run held an actor's drain.
    var inlineHopTasks: [Int] {
      heldActorDrain ? tasks.tasksWithInlineHops : []
    }

    /// Holds a job of the run: one the driver thread enqueued, or one another thread delivered
    /// (see ``RunMailbox``).
    mutating func hold(_ job: UnownedJob, taskID: UInt64, source: RunDriver.Source, yieldingTask: Int = 0) {
      let local = localID(of: taskID)
      // The job that goes on with what the last step ran: after a task's job, that task's next
      // job, or the drain of an idle actor it hopped onto; after a job of no task (an actor's
      // drain running tasks inline), the first job of a task the run already knew, or the next
      // actor's drain. A yield goes on with nothing, and neither does what it wakes.
      if continuation == nil, yieldingTask == 0, !lastRanYield,
        lastRanTask != 0 ? (local == lastRanTask || local == 0) : (local == 0 || local <= tasksKnownAtLastStep)
      {
        continuation = (jobPointer(job))
      }
      switch source {
      case .global:
        makeRunnable(HeldJob(job: job, task: local, source: .global), yieldingTask: yieldingTask)
      case .main:
        if let runnable = mainBacklog.arrive(HeldJob(job: job, task: local, source: .main)) {
          makeRunnable(runnable)
        }
      case .timer(let measured):
        timers.set(HeldJob(job: job, task: local, source: .timer), measured: measured, now: now)
      }
    }

    /// Appends a job to `ready`, noting its sequence number if it is the continuation.
    @inline(__always)
    private mutating func makeRunnable(_ held: HeldJob, yieldingTask: Int = 0) {
      let sequence = ready.append(held, yieldingTask: yieldingTask)
      if let continuation, continuation == jobPointer(held.job) { continuationSequence = sequence }
    }

    /// Virtual time that never comes (see ``TimerQueue/never``).
    static let never = TimerQueue.never

    /// The run-local id of a runtime task id, assigned on first sight.
    mutating func localID(of taskID: UInt64) -> Int { tasks.localID(of: taskID) }

    /// Whether the run has held a job of the task (by runtime id).
    mutating func knows(_ taskID: UInt64) -> Bool { tasks.knownID(of: taskID) != nil }

    /// The run-local id the task (a runtime id) has, or would get if it were held now.
    func prospectiveLocalID(of taskID: UInt64) -> Int { tasks.prospectiveLocalID(of: taskID) }

    /// The runtime id of the run's root task, 0 before it was held.
    var rootTaskID: UInt64 { tasks.rootTaskID }

    /// Runtime ids of tasks seen for the first time since ``RunDriver`` last told the mailbox.
    var newTasks: [UInt64] {
      get { tasks.newTasks }
      set { tasks.newTasks = newValue }
    }

    /// Holds a job that came back from outside the harness, and records its admission at this
    /// step in the schedule.
    mutating func admit(_ delivery: RunMailbox.Delivery) {
      hold(delivery.captured)
      outside.admitted(task: localID(of: delivery.captured.taskID), step: trace.stepCount, from: delivery.executor)
    }

    /// Records that the root task finished outside the harness, on `executor`.
    mutating func rootFinishedOutside(on executor: String) {
      rootDone = true
      outside.rootFinished(on: executor)
    }

    /// Notes a targeted task (by runtime id) with a handle that keeps it alive; it becomes
    /// cancellable at the next step, once the run has held a job of it.
    mutating func noteTarget(_ taskID: UInt64, handle: Task<Void, Never>, name: String? = nil) {
      cancellation.note(taskID, handle: handle, name: name)
    }

    /// Records the name of the current task (by runtime id) in the trace, if the run knows the
    /// task and has no name for it yet: failures then say `task 2 'waiter'`.
    mutating func noteName(ofCurrentTask taskID: UInt64, name: String?) {
      guard let name, let local = tasks.knownID(of: taskID), trace.taskNames[local] == nil else { return }
      trace.taskNames[local] = name
    }

    /// Notes `current` (the running task, by runtime id and as a job) if its name is targeted.
    mutating func noteIfTargetedByName(_ current: (id: UInt64, job: UnownedJob), name: String?) {
      guard let name, cancellation.targets(name: name) else { return }
      noteTarget(current.id, handle: RunDriver.handle(ofTaskJob: current.job), name: name)
    }

    /// The cancellation the strategy chooses now, if any, recorded in the schedule and the trace.
    private mutating func chosenCancellation<Strategy: ScheduleStrategy>(
      strategy: inout Strategy
    ) -> Task<Void, Never>? {
      let tasks = self.tasks
      guard
        let (task, handle) = cancellation.choose(
          strategy: &strategy, step: trace.stepCount, localID: { tasks.knownID(of: $0) }, names: &trace.taskNames)
      else { return nil }
      trace.append(Trace.Event(step: trace.stepCount, task: task, kind: .cancelled, virtualTime: now))
      return handle
    }

    /// Picks what the driver does next: run a job the strategy chooses, wait for a declared
    /// outside wake-up, or end the run (the root finished and nothing is left to run, a
    /// deadlock, the step budget). `outsideWakeUpExpected` (whether the mailbox still expects an
    /// outside wake-up) is only read when nothing is runnable; the caller must then have
    /// collected the mailbox's deliveries, under its lock.
    mutating func nextStep<Strategy: ScheduleStrategy>(
      strategy: inout Strategy, stepBudget: Int, outsideWakeUpExpected: Bool, outsideWorkPending: Bool = false,
      outsideThreadsWoken: Bool = false
    ) -> Step {
      // A cancellation comes first: it may make something runnable (a cancellation handler
      // resuming a continuation) before the run waits, moves time on or ends.
      if cancellation.targets != nil, !(rootDone && ready.isEmpty),
        let handle = chosenCancellation(strategy: &strategy)
      {
        return .cancel(handle)
      }
      // An expected outside wake-up comes before virtual time moves on: something is about to
      // become runnable.
      if ready.isEmpty && !rootDone && outsideWakeUpExpected {
        return .waitForOutsideWakeUp
      }
      if ready.isEmpty && !rootDone,
        let earliest = timers.earliestDeadline, earliest != Self.never
      {
        // Work outside the harness runs in real time, and virtual time must not outrun it (Go's
        // `testing/synctest` rule: time moves only when everything is durably blocked). While
        // work the run handed to Dispatch has not run, or once the run has taken work from
        // outside, a timer does not fire before that work had the timer's delay (up to the
        // timeout) to come back, as on real threads. Work handed to Dispatch ends the wait as
        // soon as it has all run. A thread the run woke but did not start (an event loop made
        // before it) never says it is done: it has the whole delay, as it would on real threads.
        // A job that overstayed its slice runs in real time too.
        if let (wait, whilePending) = outside.waitBeforeJump(
          of: earliest - now, pending: outsideWorkPending, threadsWoken: outsideThreadsWoken,
          jobsElsewhere: jobsOverstaying > 0)
        {
          return .waitForOutsideWork(wait, whilePending: whilePending)
        }
        // Nothing can run: advance virtual time to the next timer. Timers due together become
        // runnable in the order they were set, and the strategy orders them from there.
        now = earliest
        for job in timers.takeDue(at: earliest) { makeRunnable(job) }
      }
      // After the root finished, the jobs it left runnable still run (a queue's drainer giving
      // up its turn, say), so that no state shared across runs, like `MainActor.queue`, is left
      // mid-step. Pending timers are not waited for.
      if ready.isEmpty {
        // A job that overstayed its slice may still make work: neither the end nor a deadlock
        // while one runs. A run stuck there is the job limit's to find.
        if jobsOverstaying > 0 { return .waitForJobsElsewhere }
        if rootDone { return .end(.completed) }
        // A task may wait for something the harness cannot see end (a callback on a Dispatch
        // queue, a job on a custom executor): give it time before calling this a deadlock. A
        // wait-for cycle among announced waits ends by no outside hand.
        // Nor does a task whose continuation the runtime says was dropped without a resume.
        if let wait = outside.waitBeforeDeadlock(waitCycle: ledgerHasCycle) {
          return .waitForOutsideWork(wait)
        }
        return .end(.deadlocked(deadlockReport()))
      }
      if steps >= stepBudget {
        return .end(.stepBudgetExceeded(steps: steps))
      }
      var index = 0
      if ready.count > 1 {
        let continuing = continuationSequence.flatMap { ready.index(ofSequence: $0) }
        let context = ChoiceContext(step: steps, previousTask: lastRanTask, continuingIndex: continuing)
        index = min(max(strategy.choose(from: RunnableJobs(ready), context: context), 0), ready.count - 1)
        choices.append(choice: index, branching: ready.count)
      }
      let entry = ready.remove(at: index)
      let next = entry.held
      if next.isMain, let following = mainBacklog.ranRunnable() { makeRunnable(following) }
      outside.jobRan()
      trace.appendRan(task: next.task, source: next.source, virtualTime: now)
      steps += 1
      lastRanTask = next.task
      lastRanYield = entry.yieldingTask != 0
      continuation = nil
      continuationSequence = nil
      tasksKnownAtLastStep = tasks.count
      return .run(next)
    }

    /// Records that the job the last step chose overstayed its slice: it goes on on a thread of
    /// its own, and the driver goes on choosing among the other jobs. An actor's drain it was
    /// ends here for the run's picture. A main-actor job keeps the main actor: the main-actor job
    /// made runnable when it was chosen waits again, first in line, until it returns, since the
    /// main actor runs one job at a time.
    mutating func jobOverstays(isMain: Bool) {
      jobsOverstaying += 1
      actorWork.drainEnds()
      guard isMain else { return }
      var index = 0
      while index < ready.count, !ready.entry(at: index).held.isMain { index += 1 }
      mainBacklog.occupy(puttingBack: index < ready.count ? ready.remove(at: index).held : nil)
    }

    /// Records that a job that overstayed its slice returned; a main-actor job lets the next
    /// main-actor job run.
    mutating func overstayingJobReturned(isMain: Bool) {
      jobsOverstaying -= 1
      if isMain, let following = mainBacklog.ranRunnable() { makeRunnable(following) }
    }

    /// Whether the announced waits form a wait-for cycle.
    private var ledgerHasCycle: Bool {
      !ledger.analyze(label: { "task \($0)" }).cycle.isEmpty
    }

    /// Ends the run and returns its result. A run that completed may leave timers behind: they
    /// are returned to be handed to the platform, as they no longer belong to a run. A run that
    /// did not complete abandons its tasks: whatever they still hold is never run (and the
    /// mailbox drops what they are woken for later).
    mutating func end(
      _ outcome: RunResult.Outcome, strategySummary: String?, fairFromChoice: Int? = nil
    ) -> (leftovers: [HeldJob], result: RunResult) {
      let abandoned = outcome != .completed
      // The main actor's waiting jobs follow its runnable one, in their order.
      let timerJobs = timers.removeAll()
      let leftovers = abandoned ? [] : ready.liveEntries.map(\.held) + mainBacklog.waiting + timerJobs
      ready.removeAll()
      mainBacklog = MainActorBacklog()
      var result = RunResult(
        outcome: outcome, choices: choices, trace: trace,
        virtualTime: now, strategySummary: strategySummary, inlineHopTasks: inlineHopTasks)
      result.cancellations = cancellation.made
      result.reachedCancellationTargets = cancellation.reached
      result.admissions = outside.admissions
      result.timerDelays = timers.delays
      result.outsideWork = outside.work
      result.fairFromChoice = fairFromChoice
      let tasks = self.tasks
      actorWork.resolve { tasks.knownID(of: $0) }
      result.actorWork = actorWork
      actorWork = ActorWork()
      trace = Trace()
      choices = ChoiceLog()
      cancellation.releaseHandles()
      return (leftovers, result)
    }
  }

  /// The job's address: the identity of a held job while it waits to run.
  @inline(__always)
  private func jobPointer(_ job: UnownedJob) -> UnsafeRawPointer {
    unsafeBitCast(job, to: UnsafeRawPointer.self)
  }
#endif
