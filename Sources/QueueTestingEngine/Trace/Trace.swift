/// What a controlled run did, event by event, with run-local task ids.
///
/// Task ids are numbered from 1 in the order the run first saw each task, and queues and their
/// items are numbered in the order the run first saw them, so a trace does not depend on the
/// process's history. ``hash`` is FNV-1a over the events and is stable across processes, debug
/// and release builds.
public struct Trace: Equatable, Sendable {
  /// One thing that happened in the run.
  public struct Event: Equatable, Sendable {
    /// Where a job came from.
    public enum Source: UInt8, Sendable {
      /// The default (global) executor: new tasks, resumptions, `Task.yield()`.
      case global
      /// The main actor.
      case main
      /// A timer that came due in virtual time (`Task.sleep`).
      case timer
    }

    // The queue-item cases are boxed (`indirect`): a run records one event per job, almost all
    // of them `ran`, and boxing the rare large payloads keeps every event 48 bytes instead of 80.
    /// What happened.
    public enum Kind: Equatable, Sendable {
      /// The scheduler ran one job of the task: one step of the run.
      case ran(Source)
      /// The task enqueued an item; `waiting` when it waits for the item (`enqueueAndWait`).
      indirect case enqueued(QueueItem, waiting: Bool)
      /// The item's operation started in the task.
      indirect case started(QueueItem)
      /// The item's operation returned or threw.
      indirect case finished(QueueItem)
      /// The task is about to suspend at a named wait (a gate, a named continuation).
      case waits(String)
      /// A mark recorded by code under test (see ``TraceRecorder``).
      case mark(String)
      /// The schedule cancelled the task here (a cancellation choice; see ``CancellationTargets``).
      case cancelled
    }

    /// The number of the step during which this happened (the first job is step 1; 0 means
    /// before any job ran).
    public var step: Int
    /// The run-local id of the task (0 for a job that is not a task).
    public var task: Int
    /// What happened.
    public var kind: Kind
    /// Virtual time in nanoseconds.
    public var virtualTime: UInt64

    /// Creates an event.
    public init(step: Int, task: Int, kind: Kind, virtualTime: UInt64) {
      self.step = step
      self.task = task
      self.kind = kind
      self.virtualTime = virtualTime
    }
  }

  /// The events, in order.
  ///
  /// Built from the trace's compact storage on each access: read it once and keep the array
  /// rather than reading it in a loop.
  public var events: [Event] { log.events }

  /// How many events the trace holds.
  public var eventCount: Int { log.count }

  /// The last `count` events, in order (all of them when there are fewer).
  public func events(last count: Int) -> [Event] {
    log.events(last: count)
  }

  /// The events, compactly (see ``TraceLog``).
  private var log = TraceLog()
  /// How many jobs ran (events of kind ``Event/Kind/ran(_:)``).
  public var stepCount: Int { log.ranCount }
  /// The FNV-1a hash of the events.
  public private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  /// Task names the run learned (from `Task(name:)`), by run-local id.
  public internal(set) var taskNames: [Int: String] = [:]

  /// Creates an empty trace.
  public init() {}

  /// Creates a trace from events, for tests of code that reads traces (oracles, views).
  public init(events: [Event]) {
    for event in events { append(event) }
  }

  /// Appends an event; the hash covers it.
  mutating func append(_ event: Event) {
    log.append(event)
    mix(UInt64(event.task))
    mix(event.virtualTime)
    switch event.kind {
    case .ran(let source):
      mix(1)
      mix(UInt64(source.rawValue))
    case .enqueued(let item, let waiting):
      mix(2)
      mix(item)
      mix(waiting ? 1 : 0)
    case .started(let item):
      mix(3)
      mix(item)
    case .finished(let item):
      mix(4)
      mix(item)
    case .waits(let label):
      mix(5)
      mix(label)
    case .mark(let label):
      mix(6)
      mix(label)
    case .cancelled:
      mix(7)
    }
  }

  /// Appends a `ran` event: what the driver records for every job, so it skips building an
  /// ``Event`` (whose kind may carry strings). The hash is the one ``append(_:)`` computes for
  /// the same event.
  mutating func appendRan(task: Int, source: Event.Source, virtualTime: UInt64) {
    log.appendRan(step: stepCount + 1, task: task, source: source, virtualTime: virtualTime)
    mix(UInt64(task))
    mix(virtualTime)
    mix(1)
    mix(UInt64(source.rawValue))
  }

  @inline(__always)
  private mutating func mix(_ value: UInt64) {
    hash = (hash ^ value) &* 0x0000_0100_0000_01b3
  }

  private mutating func mix(_ item: QueueItem) {
    mix(UInt64(item.queue))
    mix(UInt64(item.number))
  }

  private mutating func mix(_ text: String) {
    for byte in text.utf8 { mix(UInt64(byte)) }
  }

  /// The name of a task for reports: `task 3 'loader'`, or `task 3`.
  public func label(ofTask task: Int) -> String {
    if let name = taskNames[task] { return "task \(task) '\(name)'" }
    return task == 1 ? "task 1 (root)" : "task \(task)"
  }

  /// The last `count` events as lines, for reports.
  public func lastEvents(_ count: Int) -> [String] {
    events(last: count).map { event in
      "step \(event.step), \(label(ofTask: event.task)): \(event.kind.summary) at \(event.virtualTime) ns"
    }
  }

  /// Each task's last event, by run-local task id (tasks with no event are missing). One pass
  /// from the end that stops once every task in `1...taskCount` was found.
  public func lastEventOfEachTask(taskCount: Int) -> [Int: Event] {
    var found: [Int: Event] = [:]
    let all = events
    for event in all.reversed() where event.task > 0 && found[event.task] == nil {
      found[event.task] = event
      if found.count == taskCount { break }
    }
    return found
  }
}

extension Trace.Event.Kind {
  /// A short description, as used in reports and the column view.
  public var summary: String {
    switch self {
    case .ran(.global): "ran"
    case .ran(.main): "ran on main"
    case .ran(.timer): "woke (timer)"
    case .enqueued(let item, let waiting): waiting ? "enqueue+wait \(item)" : "enqueue \(item)"
    case .started(let item): "start \(item)"
    case .finished(let item): "finish \(item)"
    case .waits(let label): "waits: \(label)"
    case .mark(let label): label
    case .cancelled: "cancelled (schedule choice)"
    }
  }
}
