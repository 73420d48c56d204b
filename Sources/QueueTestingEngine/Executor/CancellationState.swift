#if compiler(>=6.3)
  /// What a run with cancellation targets knows of them: the targeted tasks found, those it may
  /// still cancel (with handles that keep them alive until the run ends), the cancellations made,
  /// and which targets the run reached.
  ///
  /// Made anew for each run (see ``RunState/begin(cancellationTargets:outsideWorkTimeout:replayedTimerDelays:)``).
  @available(ExecutorHooks 1.0, *)
  struct CancellationState {
    /// The tasks this run may cancel as a schedule choice; nil: none (the common case, which
    /// then costs one check per captured job).
    let targets: CancellationTargets?
    /// Targeted tasks found since the last step, by runtime id, with a handle that keeps each
    /// alive until the run ends (see ``RunDriver``).
    private var found: [(taskID: UInt64, handle: Task<Void, Never>, name: String?)] = []
    /// Targeted tasks not cancelled yet, by run-local id, ascending, and their handles.
    private var cancellable: [Int] = []
    private var handles: [Int: Task<Void, Never>] = [:]
    /// The cancellations made, in order.
    private(set) var made: [Schedule.Cancellation] = []
    /// Targeted names of tasks that became cancellable in this run.
    private var reachedNames: Set<String> = []
    /// Whether a child of the root became cancellable in this run.
    private var reachedChildOfRoot = false

    init(targets: CancellationTargets? = nil) {
      self.targets = targets
    }

    /// Notes a targeted task (by runtime id) with a handle that keeps it alive; it becomes
    /// cancellable at the next step, once the run has held a job of it.
    mutating func note(_ taskID: UInt64, handle: Task<Void, Never>, name: String?) {
      found.append((taskID, handle, name))
    }

    /// Whether `name` is one of the targeted names.
    func targets(name: String) -> Bool {
      targets?.names.contains(name) == true
    }

    /// The cancellation the strategy chooses after `step`, if any: the task leaves the
    /// cancellable ones, and the cancellation is recorded. First the targets found since the last
    /// step become cancellable, each task once (`localID` gives a task's run-local id once the
    /// run has held a job of it; a name learned here goes to `names`).
    mutating func choose<Strategy: ScheduleStrategy>(
      strategy: inout Strategy, step: Int, localID: (UInt64) -> Int?, names: inout [Int: String]
    ) -> (task: Int, handle: Task<Void, Never>)? {
      takeFound(localID: localID, names: &names)
      guard !cancellable.isEmpty,
        let task = strategy.cancellation(afterStep: step, eligibleTasks: cancellable),
        let index = cancellable.firstIndex(of: task), let handle = handles[task]
      else { return nil }
      cancellable.remove(at: index)
      made.append(Schedule.Cancellation(task: task, step: step))
      return (task, handle)
    }

    /// The targets this run reached (nil for a run without targets).
    var reached: CancellationTargets? {
      targets.map { targets in
        CancellationTargets(
          includesChildrenOfRoot: targets.includesChildrenOfRoot && reachedChildOfRoot, names: reachedNames)
      }
    }

    /// Lets go of the handles that kept the targeted tasks alive for the run; the tasks go on (or
    /// stay abandoned) without them.
    mutating func releaseHandles() {
      found = []
      handles = [:]
      cancellable = []
    }

    private mutating func takeFound(localID: (UInt64) -> Int?, names: inout [Int: String]) {
      var kept: [(taskID: UInt64, handle: Task<Void, Never>, name: String?)] = []
      for target in found {
        guard let local = localID(target.taskID) else {
          kept.append(target)
          continue
        }
        if let name = target.name, names[local] == nil { names[local] = name }
        guard handles[local] == nil else { continue }
        handles[local] = target.handle
        if let name = target.name {
          reachedNames.insert(name)
        } else {
          reachedChildOfRoot = true
        }
        cancellable.insert(local, at: cancellable.firstIndex { $0 > local } ?? cancellable.endIndex)
      }
      found = kept
    }
  }
#endif
