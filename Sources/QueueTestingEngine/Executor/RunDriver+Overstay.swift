#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  import Foundation
  import Synchronization

  // A job that overstays its slice: the run leaves one-job-at-a-time.
  //
  // A job that runs until another task of the run acts (a loop over a synchronous sequence that
  // ends when its task is cancelled, a thread blocked on a semaphore that another task signals)
  // goes on, on real threads, because other threads run that task meanwhile. Run one job at a
  // time it never could. So when the job in progress has not returned after the run's slice, a
  // watcher takes the driver's state over (the job keeps its thread), records the job as one that
  // goes on beside the run, and starts a relief thread that drives the same loop on: the harness
  // goes on choosing and running the run's other jobs one at a time, beside the job, and takes
  // what the job enqueues as work from another thread. The main actor stays serial: while a
  // main-actor job overstays, the main-actor jobs behind it wait for it to return. Virtual time
  // is paced by real time while such a job runs. The run records the step where it first left;
  // what the job does after that happens in real time, so its schedule replays exactly only up
  // to there, and a search never counts it as explored to the end.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// `jobPhase` once a watcher made the run leave one-job-at-a-time.
    static let leftPhase = -1

    /// Hands the run over to a relief thread, with its job in progress going on beside it, if
    /// that job (the driver's count `job`) is still in progress; whether it did. Called by the
    /// slice watcher (see ``JobSliceWatch``), never by the driver.
    func leaveOneJobAtATime(ifStillRunning job: Int) -> Bool {
      guard
        jobPhase.compareExchange(expected: job, desired: Self.leftPhase, ordering: .sequentiallyConsistent)
          .exchanged
      else { return false }
      let overstaying = OverstayingJob(
        task: runningTask.load(ordering: .relaxed), step: runningStep.load(ordering: .relaxed),
        isMain: runningIsMain.load(ordering: .relaxed), thread: jobThread.load(ordering: .relaxed),
        kernelThread: driverKernelThread.load(ordering: .relaxed))
      // The job's own captures and records go through the lock from now on (see
      // `enterDriverState`); one already inside the state is waited for. Not under the lock: an
      // entry may take it (to register new tasks) before it leaves.
      driverThread.store(0, ordering: .sequentiallyConsistent)
      while inDriverState.load(ordering: .sequentiallyConsistent) != 0 { sched_yield() }
      // The state is this thread's until the relief thread starts.
      holdDriverCaptures()
      condition.lock()
      defer { condition.unlock() }
      // The run is active: its driver is in the job this thread won `jobPhase` from.
      guard let run = activeRun else { preconditionFailure("a job in progress without an active run") }
      if !run.mailbox.leftOneJobAtATime { run.traceAtLeaving = statePointer.pointee.trace }
      run.mailbox.jobOverstays(overstaying)
      statePointer.pointee.jobOverstays(isMain: overstaying.isMain)
      jobsOverstaying.wrappingAdd(1, ordering: .relaxed)
      if run.settings.jobSlice != nil { relieve(run, leftAtStep: overstaying.step) }
      return true
    }

    /// On a relief thread: drives the run's loop on from where the thread whose job overstayed
    /// left it (`leftAtStep`), until the run ends or a job of this thread overstays in turn.
    func relieve(_ loop: ControlledRun, leftAtStep step: Int) {
      if loop.leftAtStep == nil { loop.leftAtStep = step }
      let relief = Thread { [self] in
        var thread = DriverThreadSetup(settings: loop.settings)
        thread.begin(countsOutsideWork: loop.settings.model.countsOutsideWork)
        defer { thread.end() }
        condition.lock()
        bindDriverThread()
        condition.unlock()
        guard loop.driveSteps() else { return }
        // The run ended here: the thread that began it finishes it.
        holdDriverCaptures()
        condition.lock()
        driverThread.store(0, ordering: .relaxed)
        loop.mailbox.loopEnded = true
        condition.broadcast()
        condition.unlock()
      }
      relief.name = "QueueTesting relief driver"
      // As much stack as a thread of the cooperative pool, which runs the same jobs otherwise.
      relief.stackSize = 8 << 20
      relief.start()
    }

    /// On a thread whose job overstayed its slice, once it returned: tells the run (the job no
    /// longer takes the main actor, nor keeps the run from ending).
    func overstayingJobReturned() {
      let thread = Self.threadID()
      condition.lock()
      defer { condition.unlock() }
      // Not there when the run ended without it (it was given up, or ran out of steps).
      guard activeRun?.mailbox.overstayingJobReturned(onThread: thread) != nil else { return }
      jobsOverstaying.wrappingSubtract(1, ordering: .relaxed)
      overstayingJobsReturned.wrappingAdd(1, ordering: .relaxed)
      hasDeliveries.store(true, ordering: .relaxed)
      condition.broadcast()
    }

    /// On the driver, with nothing runnable while jobs that overstayed still run: waits a little
    /// for what they make or for one to return, naming the oldest for watchers meanwhile (its
    /// wait is the run's). Returns the stuck report when the caller gave up on the run.
    func waitForOverstayingJobs(of run: ControlledRun) -> StuckJob? {
      condition.lock()
      defer { condition.unlock() }
      if let oldest = run.mailbox.overstayingJobs.first {
        runningTask.store(oldest.task, ordering: .relaxed)
        runningStep.store(oldest.step, ordering: .relaxed)
        jobThread.store(oldest.thread, ordering: .relaxed)
        driverKernelThread.store(oldest.kernelThread, ordering: .relaxed)
      }
      if !run.mailbox.hasNews && !abandoning.load(ordering: .relaxed) {
        _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
      }
      if run.mailbox.hasNews { hasDeliveries.store(true, ordering: .relaxed) }
      jobThread.store(Self.threadID(), ordering: .relaxed)
      driverKernelThread.store(ThreadProbe.currentKernelThread, ordering: .relaxed)
      guard abandoning.load(ordering: .relaxed) else { return nil }
      let oldest = run.mailbox.overstayingJobs.first
      return StuckJob(
        task: oldest?.task ?? 0, step: oldest?.step ?? 0, limit: .zero, wait: nil, runWentOnBesideIt: true)
    }

    /// The number watchers compare over time to tell a run going on from one that is stuck: jobs
    /// started, and jobs that overstayed their slice and returned.
    var progress: Int {
      jobsStarted.load(ordering: .relaxed) &+ overstayingJobsReturned.load(ordering: .relaxed)
    }

    /// Whether a job of the active run is in progress: one the driver runs, or one that
    /// overstayed its slice and runs beside the run.
    var hasJobInProgress: Bool {
      jobsStarted.load(ordering: .relaxed) != jobsFinished.load(ordering: .relaxed)
        || jobsOverstaying.load(ordering: .relaxed) > 0
    }

    /// Whether the active run left one-job-at-a-time, for code of the run asking off the driver
    /// thread (its checks see the trace as it was then).
    var hasLeftOneJobAtATime: Bool {
      // A watcher wins `jobPhase` first and flags the mailbox once it is done with the state.
      if jobPhase.load(ordering: .relaxed) == Self.leftPhase { return true }
      condition.lock()
      defer { condition.unlock() }
      return activeRun?.mailbox.leftOneJobAtATime == true
    }
  }

  /// The rule for a job that has run for its slice in real time (see `ThreadActivity.c`): it
  /// overstays if its thread waits (blocked until something else happens, at two looks in a row,
  /// so that a moment on a lock does not count) or computed for a whole slice since the watcher
  /// first saw it. A job whose thread was only kept off the processor (a loaded machine) does not:
  /// the run stays one-job-at-a-time, and its schedule the same. Where neither can be read, real
  /// time alone decides.
  @available(ExecutorHooks 1.0, *)
  private func jobOverstays(waiting: Bool?, since cpuAtSight: UInt64?, slice: UInt64, driver: RunDriver) -> Bool {
    let cpu = ThreadProbe.cpuNanoseconds(of: driver.jobThread.load(ordering: .relaxed))
    let used = cpu.flatMap { cpu in cpuAtSight.map { cpu >= $0 ? cpu - $0 : 0 } }
    return JobSliceWatch.overstays(waiting: waiting, cpuUsed: used, slice: slice)
  }

  /// Whether the kernel thread waits now; nil where that cannot be read.
  @available(ExecutorHooks 1.0, *)
  private func threadWaits(_ driver: RunDriver) -> Bool? {
    ThreadProbe.isWaiting(kernelThread: driver.driverKernelThread.load(ordering: .relaxed))
  }

  /// The thread that watches runs with a job slice: when the job in progress has not returned
  /// after the slice, it makes the run leave one-job-at-a-time (see
  /// ``RunDriver/leaveOneJobAtATime(ifStillRunning:)``). One per process, started by the first
  /// run with a slice; it sleeps while no such run is active.
  @available(ExecutorHooks 1.0, *)
  enum JobSliceWatch {
    private static let condition = NSCondition()
    /// Whether the thread exists and sleeps until a run with a slice begins (under `condition`,
    /// read without it by runs that begin, as a hint).
    private static let sleeping = Atomic<Bool>(false)
    private static let started = Mutex<Bool>(false)

    /// Called by the driver as a run with a slice begins.
    static func runBegins() {
      let start = started.withLock { started in
        defer { started = true }
        return !started
      }
      if start {
        let thread = Thread { watch() }
        thread.name = "QueueTesting job slice"
        thread.start()
      } else if sleeping.load(ordering: .relaxed) {
        condition.lock()
        condition.signal()
        condition.unlock()
      }
    }

    /// Whether a job that has run for its slice in real time overstays it: its thread waits
    /// (`waiting`, at two looks in a row), or computed for the whole slice (`cpuUsed`, in
    /// nanoseconds); nil where that cannot be read, and then real time alone decides.
    static func overstays(waiting: Bool?, cpuUsed: UInt64?, slice: UInt64) -> Bool {
      if waiting == true { return true }
      guard waiting != nil, let cpuUsed else { return true }
      return cpuUsed >= slice
    }

    private static func watch() {
      let driver = RunDriver.shared
      var watched = 0
      var since: UInt64 = 0
      var cpuAtSight: UInt64? = 0
      // Whether the watched job's thread waited at the last look.
      var waitedBefore = false
      var idleSince = VirtualTimeProbe.realNanoseconds()
      while true {
        let slice = UInt64(max(driver.jobSliceNanoseconds.load(ordering: .relaxed), 0))
        let now = VirtualTimeProbe.realNanoseconds()
        guard slice > 0 else {
          watched = 0
          if now - idleSince > 200_000_000 {
            // No run with a slice for a while: sleep until one begins.
            condition.lock()
            sleeping.store(true, ordering: .relaxed)
            while driver.jobSliceNanoseconds.load(ordering: .relaxed) == 0 {
              _ = condition.wait(until: Date(timeIntervalSinceNow: 1))
            }
            sleeping.store(false, ordering: .relaxed)
            condition.unlock()
            idleSince = VirtualTimeProbe.realNanoseconds()
          } else {
            usleep(10_000)
          }
          continue
        }
        idleSince = now
        let job = driver.jobPhase.load(ordering: .relaxed)
        if job <= 0 {
          watched = 0
        } else if job != watched {
          watched = job
          since = now
          cpuAtSight = ThreadProbe.cpuNanoseconds(of: driver.jobThread.load(ordering: .relaxed))
          waitedBefore = false
        } else {
          // Read at every look from the second on: only a job past one look is read at all.
          let waits = threadWaits(driver)
          let waitsStill = waits.map { $0 && waitedBefore }
          waitedBefore = waits ?? false
          if now - since >= slice, jobOverstays(waiting: waitsStill, since: cpuAtSight, slice: slice, driver: driver) {
            _ = driver.leaveOneJobAtATime(ifStillRunning: job)
            watched = 0
          }
        }
        // A few looks per slice: a job is let go within about a quarter slice of its limit.
        usleep(useconds_t(min(max(slice / 4_000, 1_000), 25_000)))
      }
    }
  }
#endif
