import QueueTestingEngine

/// A scenario: queues, callers that enqueue items in program order, item bodies made of steps,
/// and the guarantees and outcome to check. Read one from text with ``ScenarioParser``; the
/// format is defined in `Scenarios/README.md`.
package struct Scenario: Equatable, Sendable {
  /// A queue the scenario declares.
  package struct Queue: Equatable, Sendable {
    /// The queue's name in the file.
    package var name: String
    /// Which kind of queue.
    package var kind: QueueItem.QueueKind
    /// How many items run at once (concurrent queues; nil for the others).
    package var width: Int?

    /// A queue of `kind` (and `width`, for a concurrent queue).
    package init(name: String, kind: QueueItem.QueueKind, width: Int? = nil) {
      self.name = name
      self.kind = kind
      self.width = width
    }
  }

  /// A semaphore the scenario declares (an `AsyncSemaphore`).
  package struct Semaphore: Equatable, Sendable {
    /// Its name in the file.
    package var name: String
    /// Its permits at first.
    package var value: Int

    /// A semaphore with `value` permits at first.
    package init(name: String, value: Int) {
      self.name = name
      self.value = value
    }
  }

  /// Code that enqueues: a synchronous nonisolated context, or a task.
  package struct Caller: Equatable, Sendable {
    /// Where a caller runs.
    package enum Context: String, Equatable, Sendable {
      /// Synchronous code: its steps run without suspending, in the root task, before any task
      /// caller starts.
      case sync
      /// A `Task` the root creates (in declaration order).
      case task
    }

    /// The caller's name in the file.
    package var name: String
    /// Where it runs.
    package var context: Context
    /// The task's priority (task callers).
    package var priority: ScenarioPriority?
    /// What it does, in order.
    package var steps: [Step]
    /// The line that declares it.
    package var line: Int
  }

  /// An item's body.
  package struct Item: Equatable, Sendable {
    /// The item's name in the file.
    package var name: String
    /// What it does, in order.
    package var steps: [Step]
    /// The line that declares it.
    package var line: Int
  }

  /// One step of a caller or an item.
  package struct Step: Equatable, Sendable {
    /// What the step does.
    package enum Action: Equatable, Sendable {
      /// Synchronous work (recorded as a mark).
      case work
      /// Suspends until a task the scheduler runs later resumes it.
      case suspend
      /// `Task.yield()`.
      case yield
      /// `Task.sleep` for this many nanoseconds of virtual time.
      case sleep(nanoseconds: UInt64)
      /// Enqueues `item` on `queue` in the given style (as a barrier, on a concurrent queue).
      case enqueue(queue: String, item: String, style: EnqueueStyle, priority: ScenarioPriority?, barrier: Bool)
      /// Throws; the rest of the item does not run.
      case throwError
      /// Cancels the task of `item` (enqueued with `task`).
      case cancel(item: String)
      /// Takes a permit of `semaphore`: `wait()`, or `waitUnlessCancelled()` (a cancelled wait
      /// goes on without a permit).
      case acquire(semaphore: String, unlessCancelled: Bool)
      /// Gives a permit back: `signal()`.
      case release(semaphore: String)
    }

    /// What the step does.
    package var action: Action
    /// Where the step is written.
    package var line: Int
  }

  /// How a step enqueues.
  package enum EnqueueStyle: String, Equatable, Sendable {
    /// `enqueue { }`: returns at once.
    case enqueue
    /// `enqueueAndWait { }`: waits for the item and receives its error.
    case wait
    /// `Task(on: queue) { }`: a new task ordered by the queue.
    case task
  }

  /// What a run of the scenario must end with.
  package enum Outcome: String, Equatable, Sendable {
    /// Every schedule completes.
    case completes
    /// Every schedule deadlocks.
    case deadlocks
    /// Either; guarantees are still checked on every schedule.
    case any
  }

  /// The scenario's name (the `name` directive, or the file's name).
  package var name: String
  /// The file it came from, if any.
  package var path: String?
  /// The declared queues, in order.
  package var queues: [Queue]
  /// The declared semaphores, in order.
  package var semaphores: [Semaphore] = []
  /// The callers, in order.
  package var callers: [Caller]
  /// The items, in declaration order.
  package var items: [Item]
  /// The guarantees to check.
  package var checks: Set<Guarantee>
  /// The expected outcome.
  package var outcome: Outcome
  /// Schedules to replay before any other (the `schedule` directive): the failing schedules a
  /// regression file was saved with, so that `queue-fuzz run` fails on it at once while the bug
  /// is there.
  package var regressionSchedules: [Schedule] = []

  /// The number of steps of all callers and items: the scenario's size.
  package var stepCount: Int {
    callers.reduce(0) { $0 + $1.steps.count } + items.reduce(0) { $0 + $1.steps.count }
  }

  /// The queue named `name`.
  package func queue(named name: String) -> Queue? {
    queues.first { $0.name == name }
  }

  /// The item named `name`.
  package func item(named name: String) -> Item? {
    items.first { $0.name == name }
  }

  /// Why `schedule` cannot be a scenario's: a scenario has no cancellation targets and no work
  /// outside the harness, so a `+c` or `+o` part could never take effect (a replay would pass
  /// without doing it); nil when it can.
  package static func problem(with schedule: Schedule) -> String? {
    if let cancellation = schedule.cancellations.first {
      return "'+c\(cancellation.task)@\(cancellation.step)': a scenario has no cancellation targets, so its "
        + "schedules cancel nothing (remove the '+c' parts)"
    }
    if let admission = schedule.admissions.first {
      return "'+o\(admission.task)@\(admission.step)': a scenario has no work outside the harness to admit "
        + "(remove the '+o' parts)"
    }
    return nil
  }
}

/// A task priority as scenario files spell it.
package enum ScenarioPriority: String, Equatable, Sendable, CaseIterable {
  /// `.background`
  case background
  /// `.utility`
  case utility
  /// `.low`
  case low
  /// `.medium`
  case medium
  /// `.high`
  case high
  /// `.userInitiated`
  case userInitiated

  /// The task priority.
  package var taskPriority: TaskPriority {
    switch self {
    case .background: .background
    case .utility: .utility
    case .low: .low
    case .medium: .medium
    case .high: .high
    case .userInitiated: .userInitiated
    }
  }
}
