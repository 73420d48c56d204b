import Synchronization

/// The process's one ``QueueObserver`` slot.
///
/// Queues read it once per enqueue: while nothing is installed that read is one relaxed atomic
/// load and a branch, and the queues take exactly the paths they take without this type.
@usableFromInline
package final class QueueObservation: Sendable {
  @usableFromInline static let shared = QueueObservation()

  /// Set once, never cleared: the fast check for "nothing installed". A static of its own (not
  /// a property of `shared`) so that it is initialized statically: reading it needs no lazy
  /// initialization check (`swift_once`) on every enqueue.
  @usableFromInline static let isInstalled = Atomic<Bool>(false)
  private let slot = LockedState<(any QueueObserver)?>.make(nil)

  private init() {}

  /// Installs `observer` for the rest of the process, unless one is installed already.
  ///
  /// The slot is written once, so readers never race with a replacement.
  /// - Returns: Whether `observer` was installed (false: another observer was there first).
  @discardableResult
  package static func install(_ observer: any QueueObserver) -> Bool {
    let installed = shared.slot.withLock { slot in
      guard slot == nil else { return false }
      slot = observer
      return true
    }
    if installed { isInstalled.store(true, ordering: .releasing) }
    return installed
  }

  /// The installed observer, or nil (the common case, decided by one atomic load).
  @inlinable
  static var current: (any QueueObserver)? {
    guard isInstalled.load(ordering: .relaxed) else { return nil }
    return shared.installedObserver()
  }

  /// The executor the installed observer wants new queue tasks to prefer (see
  /// ``QueueObserver/taskExecutorForNewTasks``); nil, after one atomic load, when none is installed.
  @inlinable
  static var taskExecutorForNewTasks: (any TaskExecutor)? {
    current?.taskExecutorForNewTasks
  }

  /// Whether a queue's task may start on the actor it will run on (its creator's, or the queue's
  /// own) instead of starting without isolation and hopping there: true unless an installed
  /// observer asks the queues' tasks to prefer a task executor (QueueTesting's runs keep the task
  /// shape that makes every hop a scheduling point).
  static var queueTasksMayStartOnTheirActor: Bool {
    taskExecutorForNewTasks == nil
  }

  @usableFromInline
  func installedObserver() -> (any QueueObserver)? {
    slot.withLock { $0 }
  }
}

/// An item some observer watches: the token it handed out, and where to report.
@usableFromInline
struct ObservedQueueItem: Sendable {
  @usableFromInline let observer: any QueueObserver
  @usableFromInline let token: UInt64

  /// Announces an item to the installed observer, if there is one and it is interested.
  @inlinable
  static func announce(
    on queue: @autoclosure () -> QueueDescription, waiting: Bool, barrier: Bool = false
  ) -> ObservedQueueItem? {
    guard let observer = QueueObservation.current,
      let token = observer.itemEnqueued(on: queue(), waiting: waiting, barrier: barrier)
    else { return nil }
    return ObservedQueueItem(observer: observer, token: token)
  }

  @inlinable
  init(observer: any QueueObserver, token: UInt64) {
    self.observer = observer
    self.token = token
  }

  @inlinable
  func started() { observer.itemStarted(token) }

  @inlinable
  func finished() { observer.itemFinished(token) }
}
