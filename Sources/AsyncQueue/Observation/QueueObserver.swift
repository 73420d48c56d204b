/// Receives the life of every item of every queue in the process, for QueueTesting's harness.
///
/// This is the hook QueueTesting uses: it installs one observer per process (see
/// ``QueueObservation``) to build traces, check ordering and explain deadlocks. It is package
/// API, not public: an observer a user installed first would lock the harness out of the slot.
/// Implementations are called on the thread that enqueues or runs the item, must return
/// quickly, and must never call into a queue.
@usableFromInline
package protocol QueueObserver: AnyObject, Sendable {
  /// An item was enqueued on `queue` by the current task (if any). Returns a token for the
  /// item's later events, or nil when the observer is not interested in this item (for example
  /// because it does not belong to a controlled run); a nil item costs nothing further.
  ///
  /// - Parameters:
  ///   - waiting: Whether the enqueuing task waits for the item (`enqueueAndWait`), as opposed to
  ///     returning at once (`enqueue`, `Task(on:)`).
  ///   - barrier: Whether the item is a barrier of a ``ConcurrentQueue``.
  func itemEnqueued(on queue: QueueDescription, waiting: Bool, barrier: Bool) -> UInt64?

  /// The item's operation starts in the current task.
  func itemStarted(_ token: UInt64)

  /// The item's operation returned (or threw).
  func itemFinished(_ token: UInt64)

  /// The task executor that tasks a queue creates now, on the current thread, should prefer
  /// (nil: none, the default).
  ///
  /// Queues create tasks of their own (a drainer, an item's task, `Task(on:)`); as unstructured
  /// tasks they inherit no task-executor preference from the code that caused them. QueueTesting
  /// returns its own executor under a controlled run, so that every actor hop of those tasks is
  /// a scheduling point. Only tasks whose work has no isolation of its own get the preference:
  /// a task started on the main actor or another actor keeps the enqueue it has.
  var taskExecutorForNewTasks: (any TaskExecutor)? { get }
}

extension QueueObserver {
  /// None: the queues' tasks prefer no executor.
  package var taskExecutorForNewTasks: (any TaskExecutor)? { nil }
}

/// What an observer learns about a queue.
@usableFromInline
package struct QueueDescription: Sendable {
  /// The kinds of queue.
  @usableFromInline
  package enum Kind: String, Sendable {
    /// A ``FIFOQueue``: items start and finish in order.
    case fifo
    /// An ``ActorQueue``: items start in order on an actor.
    case actor
    /// ``MainActor/queue`` (and ``MainActorQueue``): an actor queue on the main actor.
    case main
    /// A ``CompletionQueue``: one item at a time, each over when its finish callback is called.
    case completion
    /// A ``ConcurrentQueue``: items start in order, up to its width at once; barriers run alone.
    case concurrent
  }

  /// Identifies the queue for as long as it lives.
  @usableFromInline package let id: ObjectIdentifier
  /// The queue's name, if it has one.
  @usableFromInline package let name: String?
  /// The kind of queue.
  @usableFromInline package let kind: Kind
  /// How many items run at once (a ``ConcurrentQueue``'s width; nil for the other kinds).
  @usableFromInline package let width: Int?

  @usableFromInline
  package init(id: ObjectIdentifier, name: String?, kind: Kind, width: Int? = nil) {
    self.id = id
    self.name = name
    self.kind = kind
    self.width = width
  }
}
