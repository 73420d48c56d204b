/// A queue wrapper whose ``cancelTasks()`` cancels every task created on it that has not
/// finished yet, running or waiting for its turn.
///
/// Wrap a ``FIFOQueue``, an ``ActorQueue`` or a ``ConcurrentQueue`` and create tasks with
/// `Task(on: cancellableQueue)` (or `Task(barrierOn: cancellableQueue)`).
/// Cancellation does not reorder or skip anything: a cancelled task still runs in its turn and
/// sees `Task.isCancelled`, so it can stop early. Tasks created after ``cancelTasks()`` returns
/// are not affected.
public final class CancellableQueue<UnderlyingQueue: Sendable>: Sendable {
  /// The queue that orders the tasks.
  public let underlyingQueue: UnderlyingQueue
  private let registry = LockedState<TaskRegistry>.make(.init())

  /// Wraps `underlyingQueue`.
  public init(underlyingQueue: UnderlyingQueue) {
    self.underlyingQueue = underlyingQueue
  }

  /// Cancels every task created on this queue that has not finished.
  public func cancelTasks() {
    let cancellations = registry.withLock { $0.cancelAll() }
    for cancel in cancellations { cancel() }
  }

  /// How many tasks created on this queue have not finished (for tests and diagnostics).
  var unfinishedTaskCount: Int { registry.withLock { $0.count } }

  /// A tracked task's id and its way of saying that it finished.
  struct Registration: Sendable {
    let id: UInt64
    let registry: LockedState<TaskRegistry>

    /// Called by the task when it finishes.
    func finish() {
      registry.withLock { $0.finish(id) }
    }
  }

  /// Registers a task about to be created, before it can run.
  func register() -> Registration {
    Registration(id: registry.withLock { $0.register() }, registry: registry)
  }

  /// Attaches the created task so that ``cancelTasks()`` can reach it.
  func attach<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>, to registration: Registration) {
    let cancelNow = registry.withLock { $0.attach(registration.id, cancel: { task.cancel() }) }
    if cancelNow { task.cancel() }
  }

  /// The pure bookkeeping of tracked tasks. A task may finish before it is attached, and
  /// `cancelTasks()` may run between registering and attaching; both are handled here.
  struct TaskRegistry: Sendable {
    private enum Slot {
      case registered
      case cancelledBeforeAttach
      case attached(@Sendable () -> Void)
    }
    private var slots: [UInt64: Slot] = [:]
    private var nextID: UInt64 = 0

    var count: Int { slots.count }

    mutating func register() -> UInt64 {
      defer { nextID += 1 }
      slots[nextID] = .registered
      return nextID
    }

    /// Returns true if the task must be cancelled at once.
    mutating func attach(_ id: UInt64, cancel: @escaping @Sendable () -> Void) -> Bool {
      switch slots[id] {
      case nil:
        return false  // finished already
      case .cancelledBeforeAttach:
        slots[id] = nil
        return true
      case .registered, .attached:
        slots[id] = .attached(cancel)
        return false
      }
    }

    mutating func finish(_ id: UInt64) {
      slots[id] = nil
    }

    /// Marks everything cancelled and returns the cancellations to run outside the lock, newest
    /// task first: cancelling a running task can let it finish and the next one start at once, so
    /// every task behind it must already be cancelled by then, or it could start and find itself
    /// not cancelled.
    mutating func cancelAll() -> [@Sendable () -> Void] {
      var cancellations: [@Sendable () -> Void] = []
      for id in slots.keys.sorted(by: >) {
        guard let slot = slots[id] else { continue }
        switch slot {
        case .attached(let cancel):
          cancellations.append(cancel)
          slots[id] = nil
        case .registered:
          slots[id] = .cancelledBeforeAttach
        case .cancelledBeforeAttach:
          break
        }
      }
      return cancellations
    }
  }
}
