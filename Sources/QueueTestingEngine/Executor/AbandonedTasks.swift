#if compiler(>=6.3)
  /// The tasks of runs that ended without finishing their root (deadlock, step budget, missing
  /// outside wake-up): their jobs are dropped, never run, in every later run too. The code they
  /// would resume belongs to a run that is over, and may hold closures whose scope has ended.
  ///
  /// Outlives the runs, so ``RunDriver`` keeps it (behind its lock), not a run's ``RunMailbox``.
  struct AbandonedTasks {
    private var taskIDs = Set<UInt64>()

    /// Records that the tasks `taskIDs` (runtime ids) were abandoned.
    mutating func abandon(_ taskIDs: Set<UInt64>) {
      self.taskIDs.formUnion(taskIDs)
    }

    /// Whether a job of the task `taskID` (0: not a task) is dropped rather than run.
    func drops(taskID: UInt64) -> Bool {
      taskID != 0 && !taskIDs.isEmpty && taskIDs.contains(taskID)
    }
  }
#endif
