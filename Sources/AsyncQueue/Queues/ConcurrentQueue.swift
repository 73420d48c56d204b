/// A queue that starts asynchronous work in the order it was enqueued and runs up to `width`
/// items at once, with barriers that run alone.
///
/// The asynchronous counterpart of a concurrent `DispatchQueue` with barriers:
///
/// ```swift
/// let queue = ConcurrentQueue(width: 4)
/// for image in images {
///   queue.enqueue { await cache.load(image) }       // up to 4 loads at once, started in order
/// }
/// queue.enqueueBarrier { await cache.compact() }    // after every load, alone
/// queue.enqueue { await cache.load(thumbnail) }     // after the compaction
/// ```
///
/// - **Start order** is fixed inside the enqueuing call, as for ``FIFOQueue``: an item starts
///   only after every item enqueued before it has started, whichever tasks the runtime runs
///   first (the queue lets the next item go when the task of the one before calls into it).
///   Items then run concurrently and may finish in any order; on real threads, two items that
///   start close together run their first lines in parallel. A width of 1 starts and finishes
///   items as a ``FIFOQueue`` does.
/// - **Width:** never more than `width` items run at once, counting every form of enqueue.
/// - **Barriers** (``enqueueBarrier(_:)``, ``enqueueBarrierAndWait(_:)``, `Task(barrierOn:)`)
///   start when every earlier item has finished, and nothing enqueued after a barrier starts
///   before it finishes.
/// - **Cost** per item does not grow with the number of items pending: the line is a queue, and
///   a busy queue runs its work on at most `width` tasks of its own, each taking the next item as
///   it finishes one.
/// - **Deadlock:** an item that waits for a later item of its own queue can finish only while
///   the width leaves room for that item; from inside a barrier it never can. QueueTesting's
///   controlled executor reports such a wait as a deadlock instead of hanging.
/// - **Lifetime, cancellation and errors** are as for ``FIFOQueue``: releasing the queue drops no
///   work; an item in the caller's task (``enqueueAndWait(_:)``, `Task(on:)`) runs in its turn
///   with `Task.isCancelled` set when that task is cancelled (wrap the queue in a
///   ``CancellableQueue`` to cancel its tasks); an error reaches only the caller that waits for it.
public final class ConcurrentQueue: Sendable {
  /// A name for the queue, used in diagnostics and by QueueTesting's reports.
  public let name: String?
  /// The most items that run at once.
  public let width: Int
  /// The priority of the tasks that run items enqueued with ``enqueue(_:)`` and
  /// ``enqueueBarrier(_:)``; `nil` means the default priority of a detached task.
  public let priority: TaskPriority?

  let storage: ConcurrentQueueStorage

  /// Creates an empty concurrent queue.
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - width: The most items that run at once; at least 1 (a precondition).
  ///   - priority: The priority of the tasks that run items enqueued with ``enqueue(_:)``.
  public init(name: String? = nil, width: Int, priority: TaskPriority? = nil) {
    self.name = name
    self.width = width
    self.priority = priority
    // The machine checks the width (a precondition that names it).
    storage = ConcurrentQueueStorage(width: width, priority: priority)
  }

  /// Enqueues `operation` and returns at once. It starts after every item enqueued before it has
  /// started (and after an earlier barrier has finished), when fewer than ``width`` items run.
  public func enqueue(_ operation: @escaping @Sendable () async -> Void) {
    storage.enqueue(job(operation, barrier: false), barrier: false)
  }

  /// Enqueues `operation` as a barrier and returns at once: it starts when every item enqueued
  /// before it has finished, and no item enqueued after it starts before it finishes.
  public func enqueueBarrier(_ operation: @escaping @Sendable () async -> Void) {
    storage.enqueue(job(operation, barrier: true), barrier: true)
  }

  /// Enqueues `operation`, waits for its turn and returns its result.
  ///
  /// The operation runs in the caller's task and isolation. Cancelling the caller does not skip
  /// it: it runs in its turn with `Task.isCancelled` set. An error it throws is rethrown here and
  /// does not stop the queue.
  public nonisolated(nonsending) func enqueueAndWait<Result, Failure: Error>(
    _ operation: nonisolated(nonsending) () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    try await storage.run(in: reserve(barrier: false, waitingCaller: true), operation)
  }

  /// Enqueues `operation` as a barrier, waits for its turn and returns its result: it runs when
  /// every earlier item has finished, alone.
  ///
  /// Cancellation and errors behave as for ``enqueueAndWait(_:)``.
  ///
  /// - Warning: Calling this from an item of the same queue deadlocks.
  public nonisolated(nonsending) func enqueueBarrierAndWait<Result, Failure: Error>(
    _ operation: nonisolated(nonsending) () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    try await storage.run(in: reserve(barrier: true, waitingCaller: true), operation)
  }

  // MARK: Engine

  /// Takes a place in line for work that runs in the caller's task (`waitingCaller`: the caller
  /// waits for it, and runs it) or in a task of its own.
  func reserve(barrier: Bool, waitingCaller: Bool) -> ConcurrentQueueStorage.Reservation {
    storage.reserve(
      barrier: barrier, beginsNow: waitingCaller,
      item: ObservedQueueItem.announce(on: observedDescription, waiting: waitingCaller, barrier: barrier))
  }

  /// `operation` as the queue's job, telling an observer when it starts and finishes.
  private func job(_ operation: @escaping @Sendable () async -> Void, barrier: Bool) -> ConcurrentQueueStorage.Job {
    guard let item = ObservedQueueItem.announce(on: observedDescription, waiting: false, barrier: barrier) else {
      return ConcurrentQueueStorage.Job(run: operation)
    }
    return ConcurrentQueueStorage.Job {
      item.started()
      await operation()
      item.finished()
    }
  }

  /// How the harness's observer sees this queue.
  private var observedDescription: QueueDescription {
    QueueDescription(id: ObjectIdentifier(self), name: name, kind: .concurrent, width: width)
  }
}
