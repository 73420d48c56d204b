#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation
  import Synchronization

  // The driver's loop: one run, step by step, from the root task's first job to its outcome.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// Runs `body` under control on the calling thread, which holds `runSlot` and becomes the
    /// driver; see ``run(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)``.
    /// Its steps are ``driveSteps(_:)``'s.
    func drive<Strategy: ScheduleStrategy>(
      strategy: inout Strategy,
      settings: RunSettings,
      rootJob: RunState.CapturedJob?,
      _ body: @escaping @Sendable () async -> Void
    ) -> RunResult {
      // A job may run for the slice before the run leaves one-job-at-a-time (see
      // `RunDriver+Overstay`). Before the run counts the threads it starts: the watcher's is not
      // the run's.
      if let slice = settings.jobSlice, slice > .zero {
        let (seconds, attoseconds) = slice.components
        jobSliceNanoseconds.store(
          Int(clamping: seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000), ordering: .relaxed)
        JobSliceWatch.runBegins()
      }
      defer { jobSliceNanoseconds.store(0, ordering: .relaxed) }
      // Work this thread hands to Dispatch during the run is counted until it has run (see
      // `OutsideWorkCounts.c`); each time some has, a driver waiting for outside work looks again.
      let countsOutsideWork = settings.model.countsOutsideWork
      OutsideWorkProbe.start(counting: countsOutsideWork, done: Self.wakeDriver)
      // What the runtime says about continuations dropped without a resume, while the run goes on.
      LeakedContinuationProbe.start(watching: settings.model.watchesLeakedContinuations, tell: Self.wakeDriver)
      // Clock reads in the run's jobs follow its virtual time (see `VirtualTimeReads.c`).
      VirtualTimeProbe.begin()
      var thread = DriverThreadSetup(settings: settings)
      thread.begin(countsOutsideWork: countsOutsideWork)
      defer {
        thread.end()
        LeakedContinuationProbe.stop()
        OutsideWorkProbe.stop()
      }
      let loop = DriveLoop(strategy: strategy, settings: settings)
      defer { strategy = loop.finish() }
      condition.lock()
      mailbox.begin()
      hasDeliveries.store(false, ordering: .relaxed)
      bindDriverThread()
      reliefLoop = settings.jobSlice == nil ? nil : loop
      condition.unlock()
      statePointer.pointee.begin(
        cancellationTargets: settings.targets, outsideWorkTimeout: settings.outsideWorkTimeout,
        replayedTimerDelays: loop.strategy.pointee.replayedTimerDelays ?? [])
      driverOuterTaskID = Self.currentTask()?.id ?? 0
      activeSettings = settings
      loop.replay = loop.strategy.pointee.replayedAdmissions.map { AdmissionReplay(recorded: $0) }

      // Enqueued from the driver thread while the run is active: captured as the root task. Not
      // detached, so that the body sees the caller's task-local values (Swift Testing's current
      // test and issue handlers among them).
      //
      // The root prefers the harness's task executor, and its structured children inherit the
      // preference: the runtime then never continues such a task inline when it leaves an actor
      // (`swift_task_switch` only takes its fast path when the running context has no task
      // executor, and a default actor's drain takes the drained task's preference as its own),
      // so that hop becomes a job the strategy orders. See ``RunResult/inlineHopTasks`` for
      // tasks without the preference.
      if let rootJob {
        driverCaptures.pointee.append(rootJob)
      } else {
        Self.makeRoot(policy: settings.policy, body)
      }
      if !driveSteps(loop) {
        // A job of this thread overstayed its slice, and the loop went on on a relief thread:
        // the run is finished here once it ended there.
        condition.lock()
        while !mailbox.loopEnded { condition.wait() }
        bindDriverThread()
        condition.unlock()
      }
      holdDriverCaptures()
      activeSettings = nil
      condition.lock()
      driverThread.store(0, ordering: .relaxed)
      jobThread.store(0, ordering: .relaxed)
      traceAtLeaving = nil
      reliefLoop = nil
      // Jobs that overstayed and still run when the run ended (it was given up, or ran out of
      // steps) go on as they are; their enqueues are no longer the run's.
      overstayingJobs = []
      jobsOverstaying.store(0, ordering: .relaxed)
      let undelivered = mailbox.end(completed: loop.outcome == .completed)
      condition.unlock()
      // Jobs woken for the run's tasks after its last step go with the rest of what it holds:
      // handed back if it completed (`undelivered` is empty otherwise).
      for delivery in undelivered { statePointer.pointee.hold(delivery) }
      var (leftovers, result) = statePointer.pointee.end(
        loop.outcome, strategySummary: loop.strategy.pointee.summary,
        fairFromChoice: loop.strategy.pointee.fairFromChoice)
      let counts = OutsideWorkProbe.counts
      result.outsideWork.handedToDispatch = counts.handedToDispatch
      result.outsideWork.threadsStarted = counts.threadsStarted
      result.outsideWork.threadsWoken = counts.threadsWoken
      if let leftAtStep = loop.leftAtStep {
        result.outsideWork.runsThatLeftOneJobAtATime = 1
        result.outsideWork.leftOneJobAtATimeAtStep = leftAtStep
      }
      for held in leftovers {
        if held.isMain {
          HarnessMainExecutor.forward(held.job)
        } else {
          PlatformExecutorFactory.defaultExecutor.enqueue(ExecutorJob(held.job))
        }
      }
      if abandoning.load(ordering: .relaxed) {
        // The abandoned run's job returned at last: the next run may start.
        condition.lock()
        abandonedJob = nil
        abandoning.store(false, ordering: .relaxed)
        condition.unlock()
      }
      return result
    }

    /// Whether the queues' tasks take the harness's task-executor preference: on the active run's
    /// driver thread, unless its model leaves that out (see ``RuntimeModel``).
    var queueTasksPreferHarness: Bool {
      guard enterDriverState() else { return false }
      defer { leaveDriverState() }
      return activeSettings?.model.queueTasksPreferHarness ?? false
    }

    /// Whether another tool's global-enqueue hook gets a job enqueued now: unless the active
    /// run's model leaves that out, on its driver thread (see ``RuntimeModel``).
    var honoursGlobalHook: Bool {
      guard enterDriverState() else { return true }
      defer { leaveDriverState() }
      return activeSettings?.model.honoursOtherToolsGlobalHook ?? true
    }

    /// Nanoseconds by which the sleep the calling task measures comes out short (see
    /// ``RunSettings/measurementStall``): 0 but in the test that shows a replay ignores it.
    func measurementStall() -> UInt64 {
      guard enterDriverState() else { return 0 }
      defer { leaveDriverState() }
      return activeSettings?.measurementStall?() ?? 0
    }

    /// Makes the calling thread the one that drives the active run and runs its jobs. Called with
    /// `condition` locked.
    func bindDriverThread() {
      driverThread.store(Self.threadID(), ordering: .relaxed)
      jobThread.store(Self.threadID(), ordering: .relaxed)
      driverKernelThread.store(ThreadProbe.currentKernelThread, ordering: .relaxed)
    }

    /// Runs the steps of `loop` on the calling thread, which drives the run, until the run ends
    /// (true: `loop.outcome` says how), or until a job of this thread that overstayed its slice
    /// returns, the loop having gone on on a relief thread meanwhile (false; see
    /// `RunDriver+Overstay`).
    ///
    /// Series hand strategies over as existentials, and a relief thread takes the loop as one, so
    /// this is entered unspecialized; the attributes make an optimized build check once per entry
    /// for the library's own strategies and go on in a copy specialized for it, where the per-step
    /// `choose` is a direct call.
    @_specialize(where Strategy == SeededRandomStrategy)
    @_specialize(where Strategy == PCTStrategy)
    @_specialize(where Strategy == PortfolioRandomStrategy)
    @_specialize(where Strategy == ReplayStrategy)
    @_specialize(where Strategy == BoundedExhaustiveStrategy)
    @_specialize(where Strategy == CancellingStrategy<SeededRandomStrategy>)
    @_specialize(where Strategy == CancellingStrategy<PCTStrategy>)
    func driveSteps<Strategy: ScheduleStrategy>(_ loop: DriveLoop<Strategy>) -> Bool {
      let stepBudget = loop.settings.stepBudget
      let outsideWakeUpTimeout = loop.settings.outsideWakeUpTimeout
      // Jobs of the default executor run with the harness's task executor as the running
      // context's: `swift_job_run_on_task_executor` forbids switching executors inline, so a hop
      // from nonisolated code onto an idle actor is enqueued on the actor (and its processing job
      // comes here) instead of continuing on this thread unseen. The runtime's own fast path runs
      // them on the generic executor, which allows that switch.
      let jobsOnTaskExecutor = loop.settings.policy.schedulesEveryHop
      let executors = RunExecutors()
      let strategy = loop.strategy
      var outcome = RunResult.Outcome.completed
      stepping: while true {
        holdDriverCaptures()
        if loop.replay?.isDue(atStep: statePointer.pointee.steps) == true {
          condition.lock()
          admitReplayedAdmissions(&loop.replay!, waitingUpTo: outsideWakeUpTimeout)
          condition.unlock()
        }
        if hasDeliveries.load(ordering: .relaxed) {
          condition.lock()
          collectDeliveries(replaying: loop.replay, quiescent: false)
          condition.unlock()
        }
        let step: RunState.Step
        if !statePointer.pointee.ready.isEmpty {
          // Something is runnable: the decision needs nothing from the mailbox.
          step = statePointer.pointee.nextStep(
            strategy: &strategy.pointee, stepBudget: stepBudget, outsideWakeUpExpected: false)
        } else {
          // Nothing is runnable: what other threads may bring decides between waiting for it,
          // moving virtual time on, and ending the run.
          condition.lock()
          collectDeliveries(replaying: loop.replay, quiescent: true)
          if let leaked = LeakedContinuationProbe.messages() {
            statePointer.pointee.outside.leakedContinuations = leaked
          }
          statePointer.pointee.outside.realSinceJump = loop.clockPacing.realSinceJump()
          step = statePointer.pointee.nextStep(
            strategy: &strategy.pointee, stepBudget: stepBudget,
            outsideWakeUpExpected: !mailbox.expectedOutsideWakeUps.isEmpty,
            outsideWorkPending: OutsideWorkProbe.isPending, outsideThreadsWoken: OutsideWorkProbe.wokeThreads)
          mailbox.virtualTime = statePointer.pointee.now
          loop.clockPacing.timeIs(statePointer.pointee.now)
          if case .waitForOutsideWakeUp = step {
            // Waiting is bounded in real time; a wake-up that never comes is its own outcome, not
            // a deadlock.
            let (seconds, attoseconds) = outsideWakeUpTimeout.components
            let limit = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
            if !condition.wait(until: limit) && !mailbox.hasNews {
              outcome = .outsideWakeUpNeverCame(mailbox.expectedOutsideWakeUps)
              condition.unlock()
              break stepping
            }
          }
          condition.unlock()
        }
        switch step {
        case .run(let next):
          driverJobCount &+= 1
          // This job's count: after it, a relief thread may have counted on.
          let job = driverJobCount
          runningTask.store(next.task, ordering: .relaxed)
          // The step the trace gives the job (the state has counted it already).
          runningStep.store(statePointer.pointee.steps, ordering: .relaxed)
          jobsStarted.store(job, ordering: .relaxed)
          let step = statePointer.pointee.steps
          // An actor's drain gives a turn to each task queued on the actor (see `ActorWork`).
          var drains = false
          if next.task == 0, case .actorDrain = Self.note(on: next.job, taskID: 0) {
            drains = statePointer.pointee.actorWork.drainStarts(
              job: UInt(bitPattern: unsafeBitCast(next.job, to: UnsafeRawPointer.self)), step: step)
          }
          VirtualTimeProbe.readsFollow(true)
          runningIsMain.store(next.isMain, ordering: .relaxed)
          jobPhase.store(job, ordering: .releasing)
          if next.isMain {
            next.job.runSynchronously(on: executors.main)
          } else if jobsOnTaskExecutor {
            next.job.runSynchronously(on: executors.task)
          } else {
            next.job.runSynchronously(on: executors.generic)
          }
          VirtualTimeProbe.readsFollow(false)
          if !jobPhase.compareExchange(expected: job, desired: 0, ordering: .sequentiallyConsistent).exchanged {
            // The job overstayed its slice and the loop went on on a relief thread: its hops
            // were not the trace's, and the state is no longer this thread's.
            if ActorHopProbe.hasHops { ActorHopProbe.takeHops { _ in } }
            overstayingJobReturned()
            return false
          }
          if ActorHopProbe.hasHops { takeActorHops(step: step) }
          if drains { statePointer.pointee.actorWork.drainEnds() }
          jobsFinished.store(job, ordering: .relaxed)
          if let hook = ExecutorProbe.unhonouredHook {
            outcome = .foreignExecutorHook(Self.unhonouredHookMessage(hook))
            break stepping
          }
          // The caller gave up on this run while the job ran (see `runWatched`): whatever the
          // run holds stays abandoned.
          if abandoning.load(ordering: .relaxed) {
            outcome = .stuck(
              StuckJob(task: next.task, step: statePointer.pointee.steps, limit: .zero, wait: nil))
            break stepping
          }
        case .cancel(let task):
          // Between jobs, on the driver thread: the cancellation handlers run here, and what
          // they wake is captured like any job the driver's own code enqueues.
          task.cancel()
        case .waitForOutsideWakeUp:
          continue stepping
        case .waitForOutsideWork(let limit, let whilePending):
          // Bounded in real time; whatever comes is admitted at the next step, and if nothing
          // does, the next decision moves virtual time on or reports the deadlock.
          condition.lock()
          let waitStarted = VirtualTimeProbe.realNanoseconds()
          defer { loop.clockPacing.waited(since: waitStarted) }
          let deadline = Date(timeIntervalSinceNow: limit.seconds)
          while !mailbox.hasNews && !(whilePending && !OutsideWorkProbe.isPending)
            && LeakedContinuationProbe.messages() == nil && condition.wait(until: deadline)
          {}
          if mailbox.hasNews {
            hasDeliveries.store(true, ordering: .relaxed)
          } else {
            statePointer.pointee.outside.waitSpent = limit
          }
          condition.unlock()
        case .waitForJobsElsewhere:
          if let stuck = waitForOverstayingJobs() {
            outcome = .stuck(stuck)
            break stepping
          }
        case .end(let end):
          outcome = end
          break stepping
        }
      }
      loop.outcome = outcome
      return true
    }
  }

  /// The loop of one run, kept out of any one thread's frame: the thread that begins a run drives
  /// it, and when a job overstays its slice, a relief thread goes on with the same loop (see
  /// `RunDriver+Overstay`).
  // Safety proof for `@unchecked Sendable`: the loop's state (`strategy`'s memory, `replay`,
  // `clockPacing`, `outcome`, `leftAtStep`) is read and written only by the thread that drives
  // the run at the time (the one whose id is in `RunDriver.driverThread`), or by the slice watcher
  // while it hands the run over (it has cleared `driverThread` and waited for the driver's job to
  // leave the state, see `RunDriver+Overstay`). Each hand-over is ordered: the watcher starts the
  // relief thread after its last access; the thread that began the run reads the loop again only
  // after the thread that ended it said so under `RunDriver.condition` (`mailbox.loopEnded`).
  @available(ExecutorHooks 1.0, *)
  final class DriveLoop<Strategy: ScheduleStrategy>: @unchecked Sendable {
    /// The run's strategy, in memory of its own: reached at every step, where a stored property
    /// of a class would add a dynamic exclusivity check.
    let strategy: UnsafeMutablePointer<Strategy>
    let settings: RunSettings
    /// A replay's recorded admissions of outside work, and how far it got.
    @exclusivity(unchecked) var replay: RunDriver.AdmissionReplay?
    @exclusivity(unchecked) var clockPacing = ClockPacing()
    /// How the run ended, once it did.
    var outcome = RunResult.Outcome.completed
    /// The step where the run first left one-job-at-a-time, if it did.
    var leftAtStep: Int?

    init(strategy: Strategy, settings: RunSettings) {
      self.strategy = .allocate(capacity: 1)
      self.strategy.initialize(to: strategy)
      self.settings = settings
    }

    /// The strategy as the run left it; the loop is not used again.
    func finish() -> Strategy {
      strategy.move()
    }

    deinit {
      strategy.deallocate()
    }
  }

  /// How virtual time and real time went along in a run: the real time since virtual time last
  /// moved (what a paced jump no longer waits for), and how much virtual time the run skipped, for
  /// the clock reads of its jobs: each jump counts, less the real time the driver waited (for work
  /// outside the harness) before it, which the real clock already shows.
  struct ClockPacing {
    private var lastNow: UInt64 = 0
    private var waitedSinceJump: UInt64 = 0
    private var lastJumpReal = VirtualTimeProbe.realNanoseconds()

    /// The run's virtual time after a decision.
    mutating func timeIs(_ now: UInt64) {
      guard now > lastNow else { return }
      VirtualTimeProbe.jumped(by: now - lastNow, afterWaiting: waitedSinceJump)
      lastNow = now
      waitedSinceJump = 0
      lastJumpReal = VirtualTimeProbe.realNanoseconds()
    }

    /// The real time since virtual time last moved (or the run began).
    func realSinceJump() -> Duration {
      let now = VirtualTimeProbe.realNanoseconds()
      return .nanoseconds(Int64(clamping: now > lastJumpReal ? now - lastJumpReal : 0))
    }

    /// The driver waited in real time from `start` (``VirtualTimeProbe/realNanoseconds()``) until now.
    mutating func waited(since start: UInt64) {
      let now = VirtualTimeProbe.realNanoseconds()
      if now > start { waitedSinceJump &+= now - start }
    }
  }
#endif
