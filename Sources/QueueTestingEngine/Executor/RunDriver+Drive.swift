#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import AsyncQueue
  import Foundation
  import Synchronization

  // Entering and leaving a run: the driver makes the run, makes it the active run on the calling
  // thread, lets the run drive its steps (see `StrategyRun+Loop`), and ends it.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// Runs `body` under control on the calling thread, which holds `runSlot` and becomes the
    /// driver; see ``run(strategy:stepBudget:outsideWakeUpTimeout:outsideWorkTimeout:jobTimeLimit:jobSlice:cancelling:_:)``.
    /// Its steps are ``StrategyRun/steps()``'s.
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
      let loop = makeRun(strategy: strategy, settings: settings)
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
      if !loop.driveSteps() {
        // A job of this thread overstayed its slice, and the loop went on on a relief thread:
        // the run is finished here once it ended there.
        condition.lock()
        while !loop.mailbox.loopEnded { condition.wait() }
        bindDriverThread()
        condition.unlock()
      }
      return end(loop)
    }

    /// A run of `strategy`, beginning from the state the last run left (see `stateBetweenRuns`).
    private func makeRun<Strategy>(strategy: Strategy, settings: RunSettings) -> StrategyRun<Strategy> {
      // A copy that takes the ready queue's memory along; the driver takes it back as the run ends.
      var state = stateBetweenRuns.pointee
      state.begin(
        cancellationTargets: settings.targets, outsideWorkTimeout: settings.outsideWorkTimeout,
        replayedTimerDelays: strategy.replayedTimerDelays ?? [])
      let loop = StrategyRun(
        strategy: strategy, driver: self, state: state, settings: settings, outerTaskID: Self.currentTask()?.id ?? 0)
      loop.replay = strategy.replayedAdmissions.map { AdmissionReplay(recorded: $0) }
      return loop
    }

    /// Makes `loop` the active run, with the calling thread its driver.
    private func begin(_ loop: ControlledRun) {
      statePointer = loop.state
      driverCaptures = loop.captures
      condition.lock()
      hasDeliveries.store(false, ordering: .relaxed)
      bindDriverThread()
      activeRun = loop
      condition.unlock()
    }

    /// Ends the run of `loop`, whose loop has ended: no run is active any more, what it still
    /// holds goes back to the platform, and its result says how it went.
    private func end<Strategy>(_ loop: StrategyRun<Strategy>) -> RunResult {
      holdDriverCaptures()
      condition.lock()
      driverThread.store(0, ordering: .relaxed)
      jobThread.store(0, ordering: .relaxed)
      activeRun = nil
      // Jobs that overstayed and still run when the run ended (it was given up, or ran out of
      // steps) go on as they are; their enqueues are no longer the run's.
      jobsOverstaying.store(0, ordering: .relaxed)
      let (undelivered, abandoned) = loop.mailbox.end(completed: loop.outcome == .completed)
      abandonedTasks.abandon(abandoned)
      condition.unlock()
      // No thread drives now: the run's state is this thread's to finish.
      statePointer = stateBetweenRuns
      driverCaptures = noCaptures
      // Jobs woken for the run's tasks after its last step go with the rest of what it holds:
      // handed back if it completed (`undelivered` is empty otherwise).
      for delivery in undelivered { loop.state.pointee.hold(delivery) }
      var (leftovers, result) = loop.state.pointee.end(
        loop.outcome, strategySummary: loop.strategy.pointee.summary,
        fairFromChoice: loop.strategy.pointee.fairFromChoice)
      // The ready queue's memory and the runs' numbering, for the next run.
      stateBetweenRuns.pointee = loop.state.pointee
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
  }
#endif
