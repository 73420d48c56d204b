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
      var probes = RunProbes(settings: settings)
      probes.start(wake: Self.wakeDriver)
      defer { probes.stop() }
      let loop = ControlledRun(strategy: strategy, settings: settings, outerTaskID: Self.currentTask()?.id ?? 0)
      defer { strategy = loop.finish() }
      begin(loop)

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
      return end(loop)
    }

    /// Makes `loop` the active run, with the calling thread its driver.
    private func begin<Strategy>(_ loop: ControlledRun<Strategy>) {
      let settings = loop.settings
      condition.lock()
      mailbox.begin()
      hasDeliveries.store(false, ordering: .relaxed)
      bindDriverThread()
      activeRun = loop
      condition.unlock()
      statePointer.pointee.begin(
        cancellationTargets: settings.targets, outsideWorkTimeout: settings.outsideWorkTimeout,
        replayedTimerDelays: loop.strategy.pointee.replayedTimerDelays ?? [])
      loop.replay = loop.strategy.pointee.replayedAdmissions.map { AdmissionReplay(recorded: $0) }
    }

    /// Ends the run of `loop`, whose loop has ended: no run is active any more, what it still
    /// holds goes back to the platform, and its result says how it went.
    private func end<Strategy>(_ loop: ControlledRun<Strategy>) -> RunResult {
      holdDriverCaptures()
      condition.lock()
      driverThread.store(0, ordering: .relaxed)
      jobThread.store(0, ordering: .relaxed)
      activeRun = nil
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
    func driveSteps<Strategy: ScheduleStrategy>(_ loop: ControlledRun<Strategy>) -> Bool {
      let executors = RunExecutors()
      while true {
        guard let step = nextStep(loop) else { return true }
        switch step {
        case .run(let next):
          switch runJob(next, on: executors, loop) {
          case .returned: continue
          case .overstayed: return false
          case .endsTheRun(let outcome):
            loop.outcome = outcome
            return true
          }
        case .cancel(let task):
          // Between jobs, on the driver thread: the cancellation handlers run here, and what
          // they wake is captured like any job the driver's own code enqueues.
          task.cancel()
        case .waitForOutsideWakeUp:
          continue
        case .waitForOutsideWork(let limit, let whilePending):
          waitForOutsideWork(upTo: limit, whilePending: whilePending, loop)
        case .waitForJobsElsewhere:
          if let stuck = waitForOverstayingJobs() {
            loop.outcome = .stuck(stuck)
            return true
          }
        case .end(let end):
          loop.outcome = end
          return true
        }
      }
    }

    /// How a job the loop ran ended.
    enum JobEnd {
      /// It returned, and the run goes on.
      case returned
      /// It overstayed its slice and the loop went on on a relief thread; the state is no longer
      /// this thread's.
      case overstayed
      /// It returned, and the run ends with this outcome.
      case endsTheRun(RunResult.Outcome)
    }

    /// Takes in what came since the last step (the driver's captures, replayed admissions, jobs
    /// woken from other threads) and decides the next step; nil once the run ended waiting for a
    /// declared outside wake-up that never came (`loop.outcome` says so).
    @inline(__always)
    private func nextStep<Strategy: ScheduleStrategy>(_ loop: ControlledRun<Strategy>) -> RunState.Step? {
      holdDriverCaptures()
      if loop.replay?.isDue(atStep: statePointer.pointee.steps) == true {
        condition.lock()
        admitReplayedAdmissions(&loop.replay!, waitingUpTo: loop.settings.outsideWakeUpTimeout)
        condition.unlock()
      }
      if hasDeliveries.load(ordering: .relaxed) {
        condition.lock()
        collectDeliveries(replaying: loop.replay, quiescent: false)
        condition.unlock()
      }
      if !statePointer.pointee.ready.isEmpty {
        // Something is runnable: the decision needs nothing from the mailbox.
        return statePointer.pointee.nextStep(
          strategy: &loop.strategy.pointee, stepBudget: loop.settings.stepBudget, outsideWakeUpExpected: false)
      }
      return nextStepWithNothingRunnable(loop)
    }

    /// The next step when nothing is runnable: what other threads may bring decides between
    /// waiting for it, moving virtual time on, and ending the run.
    private func nextStepWithNothingRunnable<Strategy: ScheduleStrategy>(
      _ loop: ControlledRun<Strategy>
    ) -> RunState.Step? {
      condition.lock()
      defer { condition.unlock() }
      collectDeliveries(replaying: loop.replay, quiescent: true)
      if let leaked = LeakedContinuationProbe.messages() {
        statePointer.pointee.outside.leakedContinuations = leaked
      }
      statePointer.pointee.outside.realSinceJump = loop.clockPacing.realSinceJump()
      let step = statePointer.pointee.nextStep(
        strategy: &loop.strategy.pointee, stepBudget: loop.settings.stepBudget,
        outsideWakeUpExpected: !mailbox.expectedOutsideWakeUps.isEmpty,
        outsideWorkPending: OutsideWorkProbe.isPending, outsideThreadsWoken: OutsideWorkProbe.wokeThreads)
      mailbox.virtualTime = statePointer.pointee.now
      loop.clockPacing.timeIs(statePointer.pointee.now)
      if case .waitForOutsideWakeUp = step {
        // Waiting is bounded in real time; a wake-up that never comes is its own outcome, not
        // a deadlock.
        let (seconds, attoseconds) = loop.settings.outsideWakeUpTimeout.components
        let limit = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        if !condition.wait(until: limit) && !mailbox.hasNews {
          loop.outcome = .outsideWakeUpNeverCame(mailbox.expectedOutsideWakeUps)
          return nil
        }
      }
      return step
    }

    /// Runs the job the strategy chose, on the calling thread, and takes in what it did.
    @inline(__always)
    private func runJob<Strategy: ScheduleStrategy>(
      _ next: HeldJob, on executors: RunExecutors, _ loop: ControlledRun<Strategy>
    ) -> JobEnd {
      driverJobCount &+= 1
      // This job's count: after it, a relief thread may have counted on.
      let job = driverJobCount
      runningTask.store(next.task, ordering: .relaxed)
      // The step the trace gives the job (the state has counted it already).
      let step = statePointer.pointee.steps
      runningStep.store(step, ordering: .relaxed)
      jobsStarted.store(job, ordering: .relaxed)
      // An actor's drain gives a turn to each task queued on the actor (see `ActorWork`).
      var drains = false
      if next.task == 0, case .actorDrain = Self.note(on: next.job, taskID: 0) {
        drains = statePointer.pointee.actorWork.drainStarts(
          job: UInt(bitPattern: unsafeBitCast(next.job, to: UnsafeRawPointer.self)), step: step)
      }
      VirtualTimeProbe.readsFollow(true)
      runningIsMain.store(next.isMain, ordering: .relaxed)
      jobPhase.store(job, ordering: .releasing)
      // Jobs of the default executor run with the harness's task executor as the running
      // context's: `swift_job_run_on_task_executor` forbids switching executors inline, so a hop
      // from nonisolated code onto an idle actor is enqueued on the actor (and its processing job
      // comes here) instead of continuing on this thread unseen. The runtime's own fast path runs
      // them on the generic executor, which allows that switch.
      if next.isMain {
        next.job.runSynchronously(on: executors.main)
      } else if loop.settings.policy.schedulesEveryHop {
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
        return .overstayed
      }
      if ActorHopProbe.hasHops { takeActorHops(step: step) }
      if drains { statePointer.pointee.actorWork.drainEnds() }
      jobsFinished.store(job, ordering: .relaxed)
      if let hook = ExecutorProbe.unhonouredHook {
        return .endsTheRun(.foreignExecutorHook(Self.unhonouredHookMessage(hook)))
      }
      // The caller gave up on this run while the job ran (see `runWatched`): whatever the
      // run holds stays abandoned.
      if abandoning.load(ordering: .relaxed) {
        return .endsTheRun(
          .stuck(StuckJob(task: next.task, step: statePointer.pointee.steps, limit: .zero, wait: nil)))
      }
      return .returned
    }

    /// Waits, bounded in real time, for work outside the harness; whatever comes is admitted at
    /// the next step, and if nothing does, the next decision moves virtual time on or reports the
    /// deadlock.
    private func waitForOutsideWork<Strategy: ScheduleStrategy>(
      upTo limit: Duration, whilePending: Bool, _ loop: ControlledRun<Strategy>
    ) {
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
    }
  }
#endif
