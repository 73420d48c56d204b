/// One item of one queue, as a controlled run numbers them.
///
/// Queues are numbered from 1 in the order the run first saw them; items from 1 per queue, in
/// enqueue order. The description is `name#number` (e.g. `uploads#3`), with the queue's name
/// when it has one and `fifo1`, `actor2`, `main3` otherwise.
public struct QueueItem: Hashable, Sendable, CustomStringConvertible {
  /// The kinds of queue.
  public enum QueueKind: String, Sendable {
    /// A `FIFOQueue`: items start and finish in order and never overlap.
    case fifo
    /// An `ActorQueue`: items start in order on an actor.
    case actor
    /// The main actor's queue (`MainActor.queue`, `MainActorQueue`).
    case main
    /// A `CompletionQueue`: one item at a time, each over when its finish callback is called.
    case completion
    /// A `ConcurrentQueue`: items start in order, up to its width at once; barriers run alone.
    case concurrent
  }

  /// The run-local number of the queue.
  public var queue: Int
  /// The queue's name for reports.
  public var queueName: String
  /// The kind of queue.
  public var kind: QueueKind
  /// The item's place in its queue, from 1.
  public var number: Int
  /// How many items of its queue may run at once (a concurrent queue's width; nil otherwise).
  public var width: Int?
  /// Whether the item is a barrier of a concurrent queue.
  public var isBarrier: Bool

  /// Creates an item.
  public init(
    queue: Int, queueName: String, kind: QueueKind, number: Int, width: Int? = nil, isBarrier: Bool = false
  ) {
    self.queue = queue
    self.queueName = queueName
    self.kind = kind
    self.number = number
    self.width = width
    self.isBarrier = isBarrier
  }

  /// `name#number`.
  public var description: String { "\(queueName)#\(number)" }
}
