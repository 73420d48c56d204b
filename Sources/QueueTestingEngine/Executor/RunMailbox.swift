#if compiler(>=6.3)
  /// What other threads share with the driver of a controlled run: which tasks belong to the run,
  /// the jobs other threads woke for it, the outside wake-ups still expected, and the tasks of
  /// runs that were abandoned.
  ///
  /// A value type whose methods decide and return the decision; ``RunLoopCore`` keeps it behind
  /// its lock. Everything else about a run (``RunState``) is the driver thread's alone, so a step
  /// whose jobs all come from the driver's own jobs takes no lock.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  struct RunMailbox {
    /// A job another thread enqueued for a task of the run.
    typealias Delivery = RunState.CapturedJob

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

    /// Whether jobs wait to be collected.
    var hasDeliveries: Bool { !deliveries.isEmpty }

    /// Starts a run.
    mutating func begin() {
      isActive = true
      ownedTasks = []
      deliveries = []
      expectedOutsideWakeUps = []
      virtualTime = 0
    }

    /// Records that the tasks `taskIDs` belong to the run.
    mutating func own(_ taskIDs: some Sequence<UInt64>) {
      ownedTasks.formUnion(taskIDs)
    }

    /// Decides about a job for the task `taskID` (0: not a task) enqueued on a thread that does
    /// not drive the run. It belongs to the run when its task does (a continuation resumed from
    /// another thread); everything else (tests running in parallel, the runtime's own work) is
    /// forwarded, so concurrent tests are never captured.
    mutating func capture(_ job: UnownedJob, taskID: UInt64, source: RunLoopCore.Source) -> Capture {
      guard isActive, taskID != 0, ownedTasks.contains(taskID) else {
        return taskID != 0 && !abandonedTasks.isEmpty && abandonedTasks.contains(taskID) ? .drop : .forward
      }
      if !expectedOutsideWakeUps.isEmpty {
        expectedOutsideWakeUps.removeFirst()
      }
      deliveries.append(Delivery(job: job, taskID: taskID, source: source, note: .plain))
      return .delivered
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
    mutating func end(completed: Bool) -> [Delivery] {
      isActive = false
      if !completed { abandonedTasks.formUnion(ownedTasks) }
      ownedTasks = []
      expectedOutsideWakeUps = []
      let leftovers = completed ? deliveries : []
      deliveries = []
      return leftovers
    }
  }
#endif
