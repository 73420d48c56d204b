#if compiler(>=6.3)
  /// The tasks of a run: each runtime task id gets a small run-local id (1, 2, …) on first sight,
  /// the number traces and schedules use; and, per task, whether all its hops are scheduling
  /// points. Made anew for each run.
  @available(ExecutorHooks 1.0, *)
  struct TaskRegistry {
    private var localIDs: [UInt64: Int] = [:]
    /// A direct-mapped cache in front of `localIDs`, by the runtime id's low bits: the runtime
    /// numbers tasks consecutively, so a run's live tasks rarely share a slot, and the lookup for
    /// every captured job (a resumption, a yield) costs no hashing.
    private var recent = [(taskID: UInt64, local: Int)](repeating: (0, 0), count: TaskRegistry.recentSlots)
    private static let recentSlots = 64
    /// For each task, by run-local id (index `id - 1`): whether all its hops are scheduling
    /// points: it showed a task-executor preference, or it is `Task.sleep`'s timer task (which
    /// only resumes the sleeper).
    private var hopsAreChoices: [Bool] = []
    /// The runtime id of the run's root task (its first task), 0 before it was held.
    private(set) var rootTaskID: UInt64 = 0
    /// Runtime ids of tasks seen for the first time since ``RunDriver`` last told the mailbox
    /// (which must know them before a job of theirs can arrive from another thread).
    var newTasks: [UInt64] = []

    /// How many tasks the run has held a job of.
    var count: Int { localIDs.count }

    /// The run-local id of a runtime task id, assigned on first sight; 0 for no task.
    mutating func localID(of taskID: UInt64) -> Int {
      guard taskID != 0 else { return 0 }
      let slot = Int(truncatingIfNeeded: taskID) & (Self.recentSlots - 1)
      if recent[slot].taskID == taskID { return recent[slot].local }
      let local: Int
      if let known = localIDs[taskID] {
        local = known
      } else {
        local = localIDs.count + 1
        if local == 1 { rootTaskID = taskID }
        localIDs[taskID] = local
        newTasks.append(taskID)
        hopsAreChoices.append(false)
      }
      recent[slot] = (taskID, local)
      return local
    }

    /// The run-local id of a task the run knows, by runtime id.
    func knownID(of taskID: UInt64) -> Int? {
      localIDs[taskID]
    }

    /// The run-local id the task (a runtime id) has, or would get if it were held now.
    func prospectiveLocalID(of taskID: UInt64) -> Int {
      guard taskID != 0 else { return 0 }
      return localIDs[taskID] ?? localIDs.count + 1
    }

    /// Whether the task (a run-local id) is known to make every hop a scheduling point.
    /// (`mutating` only so that an unoptimized build reads the registry in place.)
    mutating func hopsAreChoices(of task: Int) -> Bool {
      hopsAreChoices[task - 1]
    }

    /// Records that the task (a run-local id) makes every hop a scheduling point.
    mutating func noteHopsAreChoices(of task: Int) {
      hopsAreChoices[task - 1] = true
    }

    /// Run-local ids of the tasks not known to make every hop a scheduling point, ascending.
    var tasksWithInlineHops: [Int] {
      // A loop rather than `filter` and `map`: unoptimized builds make those generic calls per
      // task, at the end of every run.
      var tasks: [Int] = []
      for index in 0..<hopsAreChoices.count where !hopsAreChoices[index] { tasks.append(index + 1) }
      return tasks
    }
  }
#endif
