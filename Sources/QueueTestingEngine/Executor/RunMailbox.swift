#if compiler(>=6.3)
  /// What other threads share with the driver of a controlled run: which tasks belong to the run,
  /// the jobs other threads woke for it, and the outside wake-ups still expected.
  ///
  /// A value type whose methods decide and return the decision; each run has its own
  /// (``ControlledRun/mailbox``), and ``RunDriver`` reaches it only behind its lock. Everything else
  /// about a run (``RunState``) is the driver thread's alone, so a step whose jobs all come from
  /// the driver's own jobs takes no lock. The tasks of runs that were abandoned outlive their run:
  /// the driver keeps them (``RunDriver/abandonedTasks``).
  @available(ExecutorHooks 1.0, *)
  struct RunMailbox {
    /// A job another thread enqueued for the run, and where that thread's work ran (see
    /// ``OutsideWork/executors``).
    struct Delivery {
      var captured: RunState.CapturedJob
      var executor: String
    }

    /// The runtime ids of the run's tasks.
    private var ownedTasks = Set<UInt64>()
    /// Jobs delivered since the driver last collected them, oldest first.
    private var deliveries: [Delivery] = []
    /// Outside wake-ups the code under test said to expect, oldest first, by label.
    private(set) var expectedOutsideWakeUps: [String] = []
    /// The run's virtual time as the driver last published it, for clocks read off the driver.
    var virtualTime: UInt64 = 0
    /// Set when the run's root task finished on another thread (its body ran on an executor of
    /// its own): where it ran.
    private(set) var rootFinishedOutside: String?
    /// Set once the run left one-job-at-a-time (a job overstayed its slice; see
    /// `RunDriver+Overstay`).
    private(set) var leftOneJobAtATime = false
    /// The run's jobs that overstayed their slice and still run, oldest first: for naming one in
    /// a stuck report and telling their enqueues apart.
    private(set) var overstayingJobs: [OverstayingJob] = []
    /// Jobs that overstayed their slice and returned since the driver last looked, oldest first:
    /// whether each was a main-actor job.
    private(set) var overstayingJobsReturned: [Bool] = []
    /// Set by the thread that ended the run's loop, for the thread that began the run to finish
    /// it, when a job of that thread overstayed (see `RunDriver+Overstay`).
    var loopEnded = false

    /// Whether jobs wait to be collected.
    var hasDeliveries: Bool { !deliveries.isEmpty }

    /// Records that `job` overstayed its slice and goes on beside the run, which so leaves
    /// one-job-at-a-time: from now on the jobs of the run's code are not all enqueued on the
    /// driver thread, and a job there may return from another thread (see
    /// ``overstayingJobReturned(onThread:)``).
    mutating func jobOverstays(_ job: OverstayingJob) {
      leftOneJobAtATime = true
      overstayingJobs.append(job)
    }

    /// Whether a job of the run that overstayed its slice runs on `thread` (see
    /// `RunDriver.threadID`).
    func hasOverstayingJob(onThread thread: UInt) -> Bool {
      !overstayingJobs.isEmpty && overstayingJobs.contains { $0.thread == thread }
    }

    /// Records that the job that overstayed on `thread` returned, and returns it; nil when no job
    /// of the run overstays there.
    mutating func overstayingJobReturned(onThread thread: UInt) -> OverstayingJob? {
      guard let index = overstayingJobs.firstIndex(where: { $0.thread == thread }) else { return nil }
      let job = overstayingJobs.remove(at: index)
      overstayingJobsReturned.append(job.isMain)
      return job
    }

    /// Hands over the returns of overstaying jobs, oldest first.
    mutating func takeOverstayingJobsReturned() -> [Bool] {
      defer { overstayingJobsReturned = [] }
      return overstayingJobsReturned
    }

    /// Records that the tasks `taskIDs` belong to the run. (An array and a loop, not a generic
    /// sequence and `formUnion`: unoptimized builds take this per new task of a run.)
    mutating func own(_ taskIDs: [UInt64]) {
      for taskID in taskIDs { ownedTasks.insert(taskID) }
    }

    /// Decides about a job for the task `taskID` (0: not a task) enqueued on a thread that does
    /// not drive the run, by code of the task `enqueuingTaskID` (0: none).
    ///
    /// It belongs to the run when its task does (a continuation resumed from another thread, a
    /// task coming back from a custom executor), or when the run's own code enqueued it while
    /// running on an executor outside the harness (a task it created there, an actor's drain it
    /// started there): that task then belongs to the run from now on. Everything else (tests
    /// running in parallel, the runtime's own work) is forwarded, so concurrent tests are never
    /// captured. `executor` names where the enqueuing thread's work ran; it is read only for a
    /// job of the run. Whether the job was delivered to the run.
    mutating func capture(
      _ job: UnownedJob, taskID: UInt64, source: RunDriver.Source, enqueuingTaskID: UInt64 = 0,
      executor: () -> String = { OutsideWork.threadsOutsideSwiftConcurrency }
    ) -> Bool {
      let ownsTask = taskID != 0 && ownedTasks.contains(taskID)
      let ownsEnqueuer = !ownsTask && enqueuingTaskID != 0 && ownedTasks.contains(enqueuingTaskID)
      guard ownsTask || ownsEnqueuer else { return false }
      if ownsEnqueuer && taskID != 0 { ownedTasks.insert(taskID) }
      if !expectedOutsideWakeUps.isEmpty {
        expectedOutsideWakeUps.removeFirst()
      }
      deliveries.append(
        Delivery(captured: .init(job: job, taskID: taskID, source: source, note: .plain), executor: executor()))
      return true
    }

    /// Records that the task `taskID` finished the run's root body on another thread, where
    /// `executor` ran it; false if that task is not the run's.
    mutating func rootFinished(byTask taskID: UInt64, executor: String) -> Bool {
      guard taskID != 0, ownedTasks.contains(taskID) else { return false }
      rootFinishedOutside = executor
      return true
    }

    /// Forgets that the root finished outside, once the driver noted it.
    mutating func clearRootFinishedOutside() {
      rootFinishedOutside = nil
    }

    /// Whether the driver has something to collect: deliveries, the root finishing outside, or
    /// jobs that overstayed returning.
    var hasNews: Bool { !deliveries.isEmpty || rootFinishedOutside != nil || !overstayingJobsReturned.isEmpty }

    /// Takes the oldest delivery that `matches`, if any.
    mutating func take(where matches: (Delivery) -> Bool) -> Delivery? {
      guard let index = deliveries.firstIndex(where: matches) else { return nil }
      return deliveries.remove(at: index)
    }

    /// Declares an outside wake-up.
    mutating func expectOutsideWakeUp(_ label: String) {
      expectedOutsideWakeUps.append(label)
    }

    /// Hands over the delivered jobs, oldest first.
    mutating func collect() -> [Delivery] {
      defer { deliveries = [] }
      return deliveries
    }

    /// Ends the run: the jobs still undelivered, to be handed to the platform when the run
    /// completed (none otherwise), and the run's tasks, which a run that did not complete
    /// abandons (none otherwise).
    mutating func end(completed: Bool) -> (leftovers: [RunState.CapturedJob], abandoned: Set<UInt64>) {
      defer { self = RunMailbox() }
      return completed ? (deliveries.map(\.captured), []) : ([], ownedTasks)
    }
  }
#endif
