#if compiler(>=6.3)
  /// What other threads share with the driver of a controlled run: which tasks belong to the run,
  /// the jobs other threads woke for it, the outside wake-ups still expected, and the tasks of
  /// runs that were abandoned.
  ///
  /// A value type whose methods decide and return the decision; ``RunDriver`` keeps it behind
  /// its lock. Everything else about a run (``RunState``) is the driver thread's alone, so a step
  /// whose jobs all come from the driver's own jobs takes no lock.
  @available(ExecutorHooks 1.0, *)
  struct RunMailbox {
    /// A job another thread enqueued for the run, and where that thread's work ran (see
    /// ``OutsideWork/executors``).
    struct Delivery {
      var captured: RunState.CapturedJob
      var executor: String
    }

    /// Where a job enqueued on a thread other than the driver goes.
    enum Capture: Equatable {
      /// Delivered to the run; the driver may be waiting for it.
      case delivered
      /// Not the run's: the platform runs it.
      case forward
      /// A job of an abandoned task: never run.
      case drop
    }

    /// Whether a run is active.
    private(set) var isActive = false
    /// The runtime ids of the active run's tasks.
    private var ownedTasks = Set<UInt64>()
    /// Tasks of runs that ended without finishing their root (deadlock, step budget, missing
    /// outside wake-up). Their jobs are dropped, never run: the code they would resume belongs to
    /// a run that is over, and may hold closures whose scope has ended.
    private var abandonedTasks = Set<UInt64>()
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
    /// Jobs that overstayed their slice and returned since the driver last looked, oldest first:
    /// whether each was a main-actor job.
    private(set) var overstayingJobsReturned: [Bool] = []
    /// Set by the thread that ended the run's loop, for the thread that began the run to finish
    /// it, when a job of that thread overstayed (see `RunDriver+Overstay`).
    var loopEnded = false

    /// Whether jobs wait to be collected.
    var hasDeliveries: Bool { !deliveries.isEmpty }

    /// Starts a run.
    mutating func begin() {
      isActive = true
      ownedTasks = []
      deliveries = []
      expectedOutsideWakeUps = []
      virtualTime = 0
      rootFinishedOutside = nil
      leftOneJobAtATime = false
      overstayingJobsReturned = []
      loopEnded = false
    }

    /// Records that the run left one-job-at-a-time: from now on the jobs of the run's code are
    /// not all enqueued on the driver thread, and a job there may return from another thread
    /// (see ``overstayingJobReturned(isMain:)``).
    mutating func leaveOneJobAtATime() {
      leftOneJobAtATime = true
    }

    /// Records that a job that overstayed its slice returned.
    mutating func overstayingJobReturned(isMain: Bool) {
      overstayingJobsReturned.append(isMain)
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
    /// job of the run.
    mutating func capture(
      _ job: UnownedJob, taskID: UInt64, source: RunDriver.Source, enqueuingTaskID: UInt64 = 0,
      executor: () -> String = { OutsideWork.threadsOutsideSwiftConcurrency }
    ) -> Capture {
      let ownsTask = isActive && taskID != 0 && ownedTasks.contains(taskID)
      let ownsEnqueuer = isActive && !ownsTask && enqueuingTaskID != 0 && ownedTasks.contains(enqueuingTaskID)
      guard ownsTask || ownsEnqueuer else {
        return taskID != 0 && !abandonedTasks.isEmpty && abandonedTasks.contains(taskID) ? .drop : .forward
      }
      if ownsEnqueuer && taskID != 0 { ownedTasks.insert(taskID) }
      if !expectedOutsideWakeUps.isEmpty {
        expectedOutsideWakeUps.removeFirst()
      }
      deliveries.append(
        Delivery(captured: .init(job: job, taskID: taskID, source: source, note: .plain), executor: executor()))
      return .delivered
    }

    /// Records that the task `taskID` finished the run's root body on another thread, where
    /// `executor` ran it; false if that task is not the run's.
    mutating func rootFinished(byTask taskID: UInt64, executor: String) -> Bool {
      guard isActive, taskID != 0, ownedTasks.contains(taskID) else { return false }
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

    /// Ends the run. A run that did not complete abandons its tasks; the jobs still undelivered
    /// are returned to be handed to the platform when it completed, and dropped otherwise.
    mutating func end(completed: Bool) -> [RunState.CapturedJob] {
      isActive = false
      if !completed { abandonedTasks.formUnion(ownedTasks) }
      ownedTasks = []
      expectedOutsideWakeUps = []
      let leftovers = completed ? deliveries.map(\.captured) : []
      deliveries = []
      rootFinishedOutside = nil
      overstayingJobsReturned = []
      return leftovers
    }
  }
#endif
