#if compiler(>=6.3)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
  internal import CQueueTestingRuntime
  import Foundation
  import Synchronization

  // A job that overstays its slice: the run leaves one-job-at-a-time.
  //
  // A job that runs until another task of the run acts (a loop over a synchronous sequence that
  // ends when its task is cancelled, a thread blocked on a semaphore that another task signals)
  // goes on, on real threads, because other threads run that task meanwhile. Run one job at a
  // time it never could. So when the job in progress has not returned after the run's slice, a
  // watcher takes the driver's state over (the job keeps the driver thread), hands every job the
  // run holds to the platform's executors, and from then on lets every job of the run through to
  // them: the rest of the run goes on beside the job, on real threads, as it would without the
  // harness. The main actor stays serial: while a main-actor job overstays, the main-actor jobs
  // behind it wait for it to return. The run records the step where it left; its schedule
  // replays exactly only up to there, and a search never counts it as explored to the end.
  @available(ExecutorHooks 1.0, *)
  extension RunDriver {
    /// `jobPhase` once a watcher made the run leave one-job-at-a-time.
    static let leftPhase = -1

    /// Takes the driver's state over and lets the run go on beside its job in progress, if that
    /// job (the driver's count `job`) is still in progress; whether it did. Called by the slice
    /// watcher (see ``JobSliceWatch``), never by the driver.
    func leaveOneJobAtATime(ifStillRunning job: Int) -> Bool {
      guard
        jobPhase.compareExchange(expected: job, desired: Self.leftPhase, ordering: .sequentiallyConsistent)
          .exchanged
      else { return false }
      // The job's own captures and records go through the lock from now on (see
      // `enterDriverState`); one already inside the state is waited for. Not under the lock: an
      // entry may take it (to register new tasks) before it leaves.
      let mainIsOverstaying = runningIsMain.load(ordering: .relaxed)
      driverThread.store(0, ordering: .sequentiallyConsistent)
      while inDriverState.load(ordering: .sequentiallyConsistent) != 0 { sched_yield() }
      // The state is this thread's until it says so under the lock; the driver, when its job
      // returns, waits for that.
      holdDriverCaptures()
      condition.lock()
      defer {
        condition.broadcast()
        condition.unlock()
      }
      traceAtLeaving = statePointer.pointee.trace
      let undelivered = mailbox.leaveOneJobAtATime(mainJobIsOverstaying: mainIsOverstaying)
      let (held, timers) = statePointer.pointee.leaveOneJobAtATime()
      // Handed over while the lock keeps other threads' jobs of the run out: the main actor's
      // jobs reach the main queue in the order the run held them, before any enqueued later.
      var mainBehind: [UnownedJob] = []
      func forward(_ job: UnownedJob, isMain: Bool) {
        if !isMain {
          PlatformExecutorFactory.defaultExecutor.enqueue(ExecutorJob(job))
        } else if mainIsOverstaying {
          mainBehind.append(job)
        } else {
          HarnessMainExecutor.forward(job)
        }
      }
      for job in held { forward(job.job, isMain: job.isMain) }
      for captured in undelivered {
        if case .timer(let delay) = captured.source {
          Self.forwardTimer(captured.job, after: delay)
        } else {
          forward(captured.job, isMain: captured.source == .main)
        }
      }
      if mainIsOverstaying { mailbox.mainJobsBehindOverstayer = mainBehind }
      for timer in timers {
        // A timer that never fires (a sleep until cancelled) stays unrun: cancelling its task
        // resumes the task without it, as the runtime does.
        guard let remaining = timer.remaining else { continue }
        Self.forwardTimer(timer.job.job, after: remaining)
      }
      return true
    }

    /// Hands a timer's job to the platform's executor, to run after `nanoseconds` of real time.
    private static func forwardTimer(_ job: UnownedJob, after nanoseconds: UInt64) {
      // The platform's default executor is a scheduling executor on every platform that has the SPI.
      let scheduler = PlatformExecutorFactory.defaultExecutor as! any SchedulingExecutor
      scheduler.enqueue(
        ExecutorJob(job), after: Duration.nanoseconds(Int64(clamping: nanoseconds)), tolerance: nil,
        clock: ContinuousClock())
    }

    /// On the driver thread, once the job during which the run left one-job-at-a-time returned:
    /// waits until the watcher is done with the state, lets the main-actor jobs that waited
    /// behind that job go, and waits for the root task to finish on the platform's threads.
    /// Returns the run's outcome: completed, or stuck when the caller gave up on it (see
    /// `runWatched`; a child's watchdog ends the process instead).
    func finishAfterLeaving(job: Int, task: Int, step: Int) -> RunResult.Outcome {
      condition.lock()
      defer { condition.unlock() }
      while !mailbox.leftOneJobAtATime { condition.wait() }
      // The state is the driver's again; its captures from here on are not the run's jobs.
      driverThread.store(Self.threadID(), ordering: .relaxed)
      if let behind = mailbox.mainJobsBehindOverstayer {
        for job in behind { HarnessMainExecutor.forward(job) }
        mailbox.mainJobsBehindOverstayer = nil
      }
      // Watchers still see a job in progress (`jobsFinished` stays behind) and count the jobs
      // the run sends to the platform as its progress: a run whose tasks all wait for something
      // that never comes is reported stuck after the job limit, as before.
      waitingAfterLeaving.store(true, ordering: .relaxed)
      defer { waitingAfterLeaving.store(false, ordering: .relaxed) }
      while mailbox.rootFinishedOutside == nil && !statePointer.pointee.rootDone {
        if abandoning.load(ordering: .relaxed) {
          return .stuck(
            StuckJob(task: task, step: step, limit: .zero, wait: nil, runWentOnBesideIt: true, jobReturned: true))
        }
        _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
      }
      return .completed
    }

    /// The number watchers compare over time to tell a run going on from one that is stuck: jobs
    /// started, and jobs sent to the platform since the run left one-job-at-a-time.
    var progress: Int {
      jobsStarted.load(ordering: .relaxed) &+ jobsAfterLeaving.load(ordering: .relaxed)
    }

    /// Whether the active run left one-job-at-a-time, for code of the run asking off the driver
    /// thread (its checks see the trace as it was then).
    var hasLeftOneJobAtATime: Bool {
      // A watcher wins `jobPhase` first and flags the mailbox once it is done with the state.
      if jobPhase.load(ordering: .relaxed) == Self.leftPhase { return true }
      condition.lock()
      defer { condition.unlock() }
      return mailbox.isActive && mailbox.leftOneJobAtATime
    }
  }

  /// The rule for a job that has run for its slice in real time (see `ThreadActivity.c`): it
  /// overstays if its thread waits (blocked until something else happens, at two looks in a row,
  /// so that a moment on a lock does not count) or computed for a whole slice since the watcher
  /// first saw it. A job whose thread was only kept off the processor (a loaded machine) does not:
  /// the run stays one-job-at-a-time, and its schedule the same. Where neither can be read, real
  /// time alone decides.
  @available(ExecutorHooks 1.0, *)
  private func jobOverstays(waiting: Bool?, since cpuAtSight: UInt64, slice: UInt64, driver: RunDriver) -> Bool {
    let cpu = qt_thread_cpu_nanoseconds(driver.jobThread.load(ordering: .relaxed))
    return JobSliceWatch.overstays(
      waiting: waiting,
      cpuUsed: cpu == .max || cpuAtSight == .max ? nil : cpu >= cpuAtSight ? cpu - cpuAtSight : 0, slice: slice)
  }

  /// Whether the kernel thread waits now; nil where that cannot be read.
  @available(ExecutorHooks 1.0, *)
  private func threadWaits(_ driver: RunDriver) -> Bool? {
    let waiting = qt_kernel_thread_is_waiting(driver.driverKernelThread.load(ordering: .relaxed))
    return waiting == -1 ? nil : waiting == 1
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
      var cpuAtSight: UInt64 = 0
      // Whether the watched job's thread waited at the last look.
      var waitedBefore = false
      var idleSince = qt_real_monotonic_nanoseconds()
      while true {
        let slice = UInt64(max(driver.jobSliceNanoseconds.load(ordering: .relaxed), 0))
        let now = qt_real_monotonic_nanoseconds()
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
            idleSince = qt_real_monotonic_nanoseconds()
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
          cpuAtSight = qt_thread_cpu_nanoseconds(driver.jobThread.load(ordering: .relaxed))
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
