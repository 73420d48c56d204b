/// Why a controlled run stopped without its root task finishing: who waits on whom.
///
/// A run deadlocks when its root task has not finished, no job can run, no timer is pending, and
/// no outside wake-up is expected: without the harness the program would hang here. The runtime
/// cannot list suspended tasks, so the report names the waits that announce themselves: items
/// of `AsyncQueue`'s queues, ``TestGate``s and ``withNamedContinuation(_:isolation:_:)``. A task that
/// waits on anything else (a `Task`'s value, a plain continuation) does not appear by itself,
/// but the items it runs do.
public struct DeadlockReport: Equatable, Sendable, CustomStringConvertible {
  /// One task that is stuck, and on what.
  public struct BlockedTask: Equatable, Sendable, CustomStringConvertible {
    /// The run-local id of the task.
    public var task: Int
    /// `task 3 'loader'`, or `task 3`.
    public var label: String
    /// What the task waits for.
    public var waitsOn: Blocker
    /// The queue items the task is running (holding their queue's turn), innermost last.
    public var running: [QueueItem]

    /// Creates a blocked-task entry.
    public init(task: Int, label: String, waitsOn: Blocker, running: [QueueItem]) {
      self.task = task
      self.label = label
      self.waitsOn = waitsOn
      self.running = running
    }

    /// `task 2 (running outer#1) waits for inner#2 to start, behind inner#1 (running in task 3)`.
    public var description: String {
      let holding = running.isEmpty ? "" : " (running \(running.map(\.description).joined(separator: ", ")))"
      return "\(label)\(holding) \(waitsOn)"
    }
  }

  /// What a blocked task waits for.
  public enum Blocker: Equatable, Sendable, CustomStringConvertible {
    /// The task waits (`enqueueAndWait`) for `item` to get its turn; the item waits behind
    /// `behind`, which runs in task `heldBy` (nil when the item in front has not started either,
    /// or when an actor queue's item waits only for the actor).
    case queueTurn(item: QueueItem, behind: QueueItem?, heldBy: Int?)
    /// The task waits (`waitUntilFinished`, say) for `item` of a `CompletionQueue`, behind
    /// `behind`, an item that started and whose finish callback was never called.
    case finishCall(item: QueueItem, behind: QueueItem)
    /// The task waits at a named suspension point (`gate 'x'`, `continuation 'y'`) that nothing
    /// left in the run will resume.
    case named(String)

    /// A sentence fragment, e.g. `waits at gate 'loaded', which nothing opens`.
    public var description: String {
      switch self {
      case .queueTurn(let item, let behind?, let heldBy?):
        "waits for \(item) to start, behind \(behind) (running in task \(heldBy))"
      case .queueTurn(let item, let behind?, nil):
        "waits for \(item) to start, behind \(behind) (not started)"
      case .queueTurn(let item, nil, _):
        "waits for \(item) to start"
      case .finishCall(let item, let behind):
        "waits for \(item) to start, behind \(behind), whose finish was never called"
      case .named(let label):
        "waits at \(label), which nothing resumes"
      }
    }
  }

  /// The blocked tasks the run can explain, by task id.
  public var blockedTasks: [BlockedTask]
  /// A wait-for cycle among tasks (each waits for the next, the last for the first), if any.
  public var cycle: [Int]
  /// Queue items that never started, oldest first.
  public var itemsNeverStarted: [QueueItem]
  /// `CompletionQueue` items that started and whose finish callback was never called.
  public var itemsAwaitingFinish: [QueueItem]
  /// How many tasks the run had seen.
  public var taskCount: Int
  /// How many jobs ran before the run stopped.
  public var steps: Int
  /// Virtual time in nanoseconds when the run stopped.
  public var virtualTime: UInt64
  /// The last events, oldest first.
  public var lastEvents: [String]
  /// Every task of the run with what it did last (`task 3 'name': waits: … at step 7`), for
  /// the waits nothing announced: the runtime does not say which tasks finished, so the list has
  /// them all, the root first, and the stuck ones are among those whose last event is a wait or a
  /// suspension.
  public var tasks: [String] = []
  /// Timers set past the end of virtual time (a sleep of `UInt64.max` nanoseconds, say): they
  /// never fire, so the tasks waiting on them are stuck unless something cancels them.
  public var timersThatNeverFire = 0
  /// How long the run waited, in real time, for work outside the harness (a callback on another
  /// thread, a job on a custom executor) before it called the run a deadlock; nil when it did
  /// not wait (a wait-for cycle, or an outside-work timeout of zero).
  public var waitedForOutsideWork: Duration?
  /// What the runtime reported during the run about continuations dropped without being resumed
  /// ("SWIFT TASK CONTINUATION MISUSE: f() leaked its continuation…"), as it reported it: a task
  /// that awaited one waits forever, and the run ends at once instead of waiting for outside work.
  public var leakedContinuations: [String] = []
  /// What the run had taken from outside the harness before it stopped.
  public var outsideWork = OutsideWork()

  /// Creates a report.
  public init(
    blockedTasks: [BlockedTask], cycle: [Int], itemsNeverStarted: [QueueItem], taskCount: Int, steps: Int,
    virtualTime: UInt64, lastEvents: [String], itemsAwaitingFinish: [QueueItem] = []
  ) {
    self.itemsAwaitingFinish = itemsAwaitingFinish
    self.blockedTasks = blockedTasks
    self.cycle = cycle
    self.itemsNeverStarted = itemsNeverStarted
    self.taskCount = taskCount
    self.steps = steps
    self.virtualTime = virtualTime
    self.lastEvents = lastEvents
  }

  /// A readable report.
  public var description: String {
    var lines = [
      "deadlock: the root task did not finish, no job can run, no timer is pending and no outside wake-up is expected",
      "  \(taskCount) task(s) seen, \(steps) step(s) run, virtual time \(virtualTime) ns",
    ]
    if !leakedContinuations.isEmpty {
      lines.append("  the runtime reported a continuation dropped without being resumed; its task waits forever:")
      lines += leakedContinuations.map { "    \($0)" }
    }
    if let waited = waitedForOutsideWork {
      lines.append(
        "  waited \(waited) (outsideWorkTimeout) for work from outside the harness to resume a task; none came")
      if !outsideWork.isEmpty { lines.append("  earlier in the run: \(outsideWork)") }
      lines.append(
        "  if a callback, a Dispatch queue or a custom executor should have resumed a task, it did not within that "
          + "time: raise outsideWorkTimeout (on .controlledScheduling(…) or ControlledExecutor.run(…)) if it is slow")
    }
    if timersThatNeverFire > 0 {
      lines.append(
        "  \(timersThatNeverFire) timer(s) set past the end of virtual time never fire (a sleep nothing cancels)")
    }
    if blockedTasks.isEmpty {
      lines.append("  no blocked task announced its wait (only queue items, TestGate and named continuations do)")
      if !tasks.isEmpty {
        lines.append("  the run's tasks and what each did last (the root has not finished):")
        lines += tasks.prefix(50).map { "    \($0)" }
        if tasks.count > 50 { lines.append("    … and \(tasks.count - 50) more") }
      }
    } else {
      lines.append("  blocked:")
      lines += blockedTasks.map { "    \($0)" }
    }
    if !cycle.isEmpty {
      let names = (cycle + [cycle[0]]).map { "task \($0)" }
      lines.append("  wait-for cycle: \(names.joined(separator: " → "))")
    }
    if !itemsAwaitingFinish.isEmpty {
      lines.append("  finish never called: \(itemsAwaitingFinish.map(\.description).joined(separator: ", "))")
    }
    if !itemsNeverStarted.isEmpty {
      lines.append("  never started: \(itemsNeverStarted.map(\.description).joined(separator: ", "))")
    }
    if !lastEvents.isEmpty {
      lines.append("  last events:")
      lines += lastEvents.map { "    \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}
