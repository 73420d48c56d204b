/// A queue that runs asynchronous work one item at a time, in the order it was enqueued.
///
/// Items **start and finish in enqueue order and never overlap**: the next item starts only after
/// the previous one has returned, including across its suspension points. This is the
/// asynchronous counterpart of a serial `DispatchQueue`, and what you want when work sent from
/// synchronous or nonisolated code must happen in order:
///
/// ```swift
/// let queue = FIFOQueue()
/// queue.enqueue { await store.save(first) }
/// queue.enqueue { await store.save(second) }   // starts after `first` has finished
/// await queue.enqueueAndWait { }               // returns after both
/// ```
///
/// - **Order** is fixed inside the enqueuing call: an item enqueued before another one, from any
///   thread, starts and finishes before it. Calls made concurrently from different threads are
///   ordered by whichever takes the queue's lock first.
/// - **Deadlock:** an item that waits for a later item of its own queue
///   (`await queue.enqueueAndWait { }` or `await Task(on: queue) { }.value` from inside an item)
///   can never finish, exactly like `DispatchQueue.sync` onto the current queue. QueueTesting's
///   controlled executor reports such a wait as a deadlock instead of hanging.
/// - **Lifetime:** releasing the queue does not drop enqueued work; it still runs in order. Pending
///   work holds the queue's storage, not the queue, so the queue is freed as soon as its last
///   reference goes, even while `Task(on:)` items wait. An idle queue holds no task and no
///   reference to its past items.
/// - **Cancellation:** items enqueued with ``enqueue(_:)`` run in a task the queue owns, so nothing
///   cancels them. Items run through `Task(on:)` or ``enqueueAndWait(_:)`` run in the caller's task;
///   cancelling it makes `Task.isCancelled` true inside the item, which still runs in its turn.
/// - **Errors** thrown by an item reach only the caller that waits for it; the queue goes on.
public final class FIFOQueue: Sendable {
  /// One place in line: a closure the drainer runs to completion, or the mark of work that runs
  /// in its own task (`Task(on:)`, `enqueueAndWait`), which takes the turn from whoever finishes
  /// before it (places are numbered in line order; no object per place). Not the bare function
  /// type: a closure stored as a generic value is reabstracted through a heap-allocated thunk,
  /// which cost one malloc per item. 16 bytes (the mark is a value the closure's function
  /// pointer never takes), so a backlog of 1 M items takes 16 MB.
  enum Job: SerialDrainEntry {
    case work(@Sendable () async -> Void)
    case place

    init(run: @escaping @Sendable () async -> Void) {
      self = .work(run)
    }

    var isPlace: Bool {
      if case .place = self { return true }
      return false
    }
  }

  /// A name for the queue, used in diagnostics and by QueueTesting's reports.
  public let name: String?
  /// The priority of the task that runs items enqueued with ``enqueue(_:)``; `nil` means the
  /// default priority of a detached task.
  public let priority: TaskPriority?

  let storage = SerialDrainStorage<Job>()

  /// Creates an empty FIFO queue.
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - priority: The priority of the task that runs items enqueued with ``enqueue(_:)``.
  public init(name: String? = nil, priority: TaskPriority? = nil) {
    self.name = name
    self.priority = priority
  }

  /// Enqueues `operation` and returns at once.
  ///
  /// The operation starts after every item enqueued before it has finished, and finishes before
  /// any item enqueued after it starts.
  public func enqueue(_ operation: @escaping @Sendable () async -> Void) {
    var job = Job(run: operation)
    if let item = ObservedQueueItem.announce(on: observedDescription, waiting: false) {
      job = Job {
        item.started()
        await operation()
        item.finished()
      }
    }
    if storage.enqueue(job) == .startDrainer { startDrainer() }
  }

  /// Enqueues `operation`, to run isolated to `actor`, and returns at once.
  ///
  /// Order is as for ``enqueue(_:)``: the item holds the queue until it returns, even while it
  /// is suspended and other code runs on `actor`.
  public func enqueue<ActorType: Actor>(
    on actor: ActorType,
    _ operation: @escaping @Sendable (isolated ActorType) async -> Void
  ) {
    enqueue { await operation(actor) }
  }

  /// Enqueues `operation`, waits for its turn and returns its result.
  ///
  /// The operation runs in the caller's task and isolation, after every earlier item has finished;
  /// later items start only after it returns. Cancelling the caller does not skip the operation:
  /// it runs in its turn with `Task.isCancelled` set. An error it throws is rethrown here and does
  /// not stop the queue.
  ///
  /// - Warning: Calling this from an item of the same queue deadlocks.
  public nonisolated(nonsending) func enqueueAndWait<Result, Failure: Error>(
    _ operation: nonisolated(nonsending) () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let reservation = reserveTurn(waiting: true)
    await storage.awaitTurn(reservation)
    reservation.item?.started()
    defer { endTurn(reservation) }
    return try await operation()
  }

  /// Enqueues `operation`, to run isolated to `actor`, waits for its turn and returns its result.
  ///
  /// Order, cancellation and errors behave as for ``enqueueAndWait(_:)``.
  ///
  /// - Warning: Calling this from an item of the same queue deadlocks.
  public func enqueueAndWait<ActorType: Actor, Result: Sendable, Failure: Error>(
    on actor: isolated ActorType,
    _ operation: (isolated ActorType) async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let reservation = reserveTurn(waiting: true)
    await storage.awaitTurn(reservation)
    reservation.item?.started()
    defer { endTurn(reservation) }
    return try await operation(actor)
  }

  // MARK: Engine

  /// Takes a place in line for work that runs in the caller's or its own task; `waiting` says
  /// whether the calling task waits for it (for the harness's wait-for graph).
  @inline(__always)
  func reserveTurn(waiting: Bool) -> SerialDrainStorage<Job>.Reservation {
    let item = ObservedQueueItem.announce(on: observedDescription, waiting: waiting)
    let (reservation, action) = storage.reserve(item: item)
    if action == .startDrainer { startDrainer() }
    return reservation
  }

  /// Gives back a turn taken with ``reserveTurn(waiting:)``: the item has finished. The turn goes
  /// straight to the next place in line, if that is what comes next.
  @inline(__always)
  func endTurn(_ reservation: SerialDrainStorage<Job>.Reservation) {
    // The same as the lane's, without forming one: `enqueueAndWait` takes this path per call.
    reservation.item?.finished()
    if storage.passTurn() { Self.startDrainer(storage, priority: priority) }
  }

  /// What a pending item needs of its queue: the storage and the priority, never the queue object,
  /// so that releasing the queue lets it go while its items still wait and run (they run all the
  /// same, in order).
  struct Lane: Sendable {
    let storage: SerialDrainStorage<Job>
    let priority: TaskPriority?

    /// See ``FIFOQueue/endTurn(_:)``.
    @inline(__always)
    func endTurn(_ reservation: SerialDrainStorage<Job>.Reservation) {
      reservation.item?.finished()
      if storage.passTurn() { FIFOQueue.startDrainer(storage, priority: priority) }
    }
  }

  /// This queue's lane (see ``Lane``).
  var lane: Lane { Lane(storage: storage, priority: priority) }

  /// How the harness's observer sees this queue.
  private var observedDescription: QueueDescription {
    QueueDescription(id: ObjectIdentifier(self), name: name, kind: .fifo)
  }

  private func startDrainer() {
    Self.startDrainer(storage, priority: priority)
  }

  fileprivate static func startDrainer(_ storage: SerialDrainStorage<Job>, priority: TaskPriority?) {
    // Capture the storage, not the queue: releasing the queue must not drop enqueued work, and an
    // idle queue must not be kept alive by a task.
    // The plain initializer when there is no preference (always, outside a controlled run): the
    // one that takes a preference costs more per task, and `enqueue {}` starts a drainer each
    // time the last one caught up.
    guard let preference = QueueObservation.taskExecutorForNewTasks else {
      Task.detached(priority: priority) { await Self.drain(storage) }
      return
    }
    Task.detached(executorPreference: preference, priority: priority) {
      await Self.drain(storage)
    }
  }

  /// Runs entries until none is left, or until a place takes the turn over. FIFO's one decision:
  /// each entry holds the turn until it has *finished*.
  private static func drain(_ storage: SerialDrainStorage<Job>) async {
    await storage.drain { job in
      if case .work(let run) = job { await run() }
    }
  }
}
