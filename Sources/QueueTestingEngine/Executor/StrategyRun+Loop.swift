#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import Foundation
  import Synchronization

  // The run's loop: its steps, from the root task's first job to its outcome, on the thread that
  // drives it. What outlives the run (the lock, the words watchers read about the job in
  // progress) is the driver's.
  @available(ExecutorHooks 1.0, *)
  extension StrategyRun {
    /// Runs the run's steps on the calling thread, which drives the run, until the run ends
    /// (true: `outcome` says how), or until a job of this thread that overstayed its slice
    /// returns, the loop having gone on on a relief thread meanwhile (false; see
    /// `RunDriver+Overstay`).
    ///
    /// Series hand strategies over as existentials, and a relief thread knows the run only as a
    /// ``ControlledRun``, so this is entered unspecialized; the attributes make an optimized build
    /// check once per entry for the library's own strategies and go on in a copy specialized for
    /// it, where the per-step `choose` is a direct call.
    @_specialize(where Strategy == SeededRandomStrategy)
    @_specialize(where Strategy == PCTStrategy)
    @_specialize(where Strategy == PortfolioRandomStrategy)
    @_specialize(where Strategy == ReplayStrategy)
    @_specialize(where Strategy == BoundedExhaustiveStrategy)
    @_specialize(where Strategy == CancellingStrategy<SeededRandomStrategy>)
    @_specialize(where Strategy == CancellingStrategy<PCTStrategy>)
    func steps() -> Bool {
      let executors = RunDriver.RunExecutors()
      while true {
        guard let step = nextStep() else { return true }
        switch step {
        case .run(let next):
          switch runJob(next, on: executors) {
          case .returned: continue
          case .overstayed: return false
          case .endsTheRun(let end):
            outcome = end
            return true
          }
        case .cancel(let task):
          // Between jobs, on the driver thread: the cancellation handlers run here, and what
          // they wake is captured like any job the driver's own code enqueues.
          task.cancel()
        case .waitForOutsideWakeUp:
          continue
        case .waitForOutsideWork(let limit, let whilePending):
          waitForOutsideWork(upTo: limit, whilePending: whilePending)
        case .waitForJobsElsewhere:
          if let stuck = driver.waitForOverstayingJobs(of: self) {
            outcome = .stuck(stuck)
            return true
          }
        case .end(let end):
          outcome = end
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
    /// declared outside wake-up that never came (`outcome` says so).
    @inline(__always)
    private func nextStep() -> RunState.Step? {
      driver.holdDriverCaptures()
      if replay?.isDue(atStep: state.pointee.steps) == true {
        driver.condition.lock()
        driver.admitReplayedAdmissions(of: self, &replay!, waitingUpTo: settings.outsideWakeUpTimeout)
        driver.condition.unlock()
      }
      if driver.hasDeliveries.load(ordering: .relaxed) {
        driver.condition.lock()
        driver.collectDeliveries(of: self, replaying: replay, quiescent: false)
        driver.condition.unlock()
      }
      if !state.pointee.ready.isEmpty {
        // Something is runnable: the decision needs nothing from the mailbox.
        return state.pointee.nextStep(
          strategy: &strategy.pointee, stepBudget: settings.stepBudget, outsideWakeUpExpected: false)
      }
      return nextStepWithNothingRunnable()
    }

    /// The next step when nothing is runnable: what other threads may bring decides between
    /// waiting for it, moving virtual time on, and ending the run.
    private func nextStepWithNothingRunnable() -> RunState.Step? {
      driver.condition.lock()
      defer { driver.condition.unlock() }
      driver.collectDeliveries(of: self, replaying: replay, quiescent: true)
      if let leaked = LeakedContinuationProbe.messages() {
        state.pointee.outside.leakedContinuations = leaked
      }
      state.pointee.outside.realSinceJump = clockPacing.realSinceJump()
      let step = state.pointee.nextStep(
        strategy: &strategy.pointee, stepBudget: settings.stepBudget,
        outsideWakeUpExpected: !mailbox.expectedOutsideWakeUps.isEmpty,
        outsideWorkPending: OutsideWorkProbe.isPending, outsideThreadsWoken: OutsideWorkProbe.wokeThreads)
      mailbox.virtualTime = state.pointee.now
      clockPacing.timeIs(state.pointee.now)
      if case .waitForOutsideWakeUp = step {
        // Waiting is bounded in real time; a wake-up that never comes is its own outcome, not
        // a deadlock.
        let (seconds, attoseconds) = settings.outsideWakeUpTimeout.components
        let limit = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        if !driver.condition.wait(until: limit) && !mailbox.hasNews {
          outcome = .outsideWakeUpNeverCame(mailbox.expectedOutsideWakeUps)
          return nil
        }
      }
      return step
    }

    /// Runs the job the strategy chose, on the calling thread, and takes in what it did.
    @inline(__always)
    private func runJob(_ next: HeldJob, on executors: RunDriver.RunExecutors) -> JobEnd {
      driver.driverJobCount &+= 1
      // This job's count: after it, a relief thread may have counted on.
      let job = driver.driverJobCount
      driver.runningTask.store(next.task, ordering: .relaxed)
      // The step the trace gives the job (the state has counted it already).
      let step = state.pointee.steps
      driver.runningStep.store(step, ordering: .relaxed)
      driver.jobsStarted.store(job, ordering: .relaxed)
      // An actor's drain gives a turn to each task queued on the actor (see `ActorWork`).
      var drains = false
      if next.task == 0, case .actorDrain = RunDriver.note(on: next.job, taskID: 0) {
        drains = state.pointee.actorWork.drainStarts(
          job: UInt(bitPattern: unsafeBitCast(next.job, to: UnsafeRawPointer.self)), step: step)
      }
      VirtualTimeProbe.readsFollow(true)
      driver.runningIsMain.store(next.isMain, ordering: .relaxed)
      driver.jobPhase.store(job, ordering: .releasing)
      // Jobs of the default executor run with the harness's task executor as the running
      // context's: `swift_job_run_on_task_executor` forbids switching executors inline, so a hop
      // from nonisolated code onto an idle actor is enqueued on the actor (and its processing job
      // comes here) instead of continuing on this thread unseen. The runtime's own fast path runs
      // them on the generic executor, which allows that switch.
      if next.isMain {
        next.job.runSynchronously(on: executors.main)
      } else if settings.policy.schedulesEveryHop {
        next.job.runSynchronously(on: executors.task)
      } else {
        next.job.runSynchronously(on: executors.generic)
      }
      VirtualTimeProbe.readsFollow(false)
      if !driver.jobPhase.compareExchange(expected: job, desired: 0, ordering: .sequentiallyConsistent).exchanged {
        // The job overstayed its slice and the loop went on on a relief thread: its hops
        // were not the trace's, and the state is no longer this thread's.
        if ActorHopProbe.hasHops { ActorHopProbe.takeHops { _ in } }
        driver.overstayingJobReturned()
        return .overstayed
      }
      if ActorHopProbe.hasHops { driver.takeActorHops(step: step) }
      if drains { state.pointee.actorWork.drainEnds() }
      driver.jobsFinished.store(job, ordering: .relaxed)
      if let hook = ExecutorProbe.unhonouredHook {
        return .endsTheRun(.foreignExecutorHook(RunDriver.unhonouredHookMessage(hook)))
      }
      // The caller gave up on this run while the job ran (see `runWatched`): whatever the
      // run holds stays abandoned.
      if driver.abandoning.load(ordering: .relaxed) {
        return .endsTheRun(
          .stuck(StuckJob(task: next.task, step: state.pointee.steps, limit: .zero, wait: nil)))
      }
      return .returned
    }

    /// Waits, bounded in real time, for work outside the harness; whatever comes is admitted at
    /// the next step, and if nothing does, the next decision moves virtual time on or reports the
    /// deadlock.
    private func waitForOutsideWork(upTo limit: Duration, whilePending: Bool) {
      driver.condition.lock()
      let waitStarted = VirtualTimeProbe.realNanoseconds()
      defer { clockPacing.waited(since: waitStarted) }
      let deadline = Date(timeIntervalSinceNow: limit.seconds)
      while !mailbox.hasNews && !(whilePending && !OutsideWorkProbe.isPending)
        && LeakedContinuationProbe.messages() == nil && driver.condition.wait(until: deadline)
      {}
      if mailbox.hasNews {
        driver.hasDeliveries.store(true, ordering: .relaxed)
      } else {
        state.pointee.outside.waitSpent = limit
      }
      driver.condition.unlock()
    }
  }
#endif
