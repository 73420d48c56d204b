/// One moment in the life of a queue item, as the ordering oracles read it.
public struct OrderingEvent: Equatable, Sendable {
  /// What happened to the item.
  public enum Kind: String, Equatable, Sendable {
    /// It was enqueued (its place in line is fixed).
    case enqueued
    /// Its operation started.
    case started
    /// It is about to suspend (an `await` that gives up the thread).
    case suspended
    /// Its operation returned or threw.
    case finished
  }

  /// What happened.
  public var kind: Kind
  /// The queue's name.
  public var queue: String
  /// The queue's kind, which decides the guarantees that apply.
  public var queueKind: QueueItem.QueueKind
  /// The item's name.
  public var item: String
  /// How many items of the queue may run at once (a concurrent queue's width; nil otherwise).
  public var queueWidth: Int?
  /// Whether the item is a barrier of a concurrent queue.
  public var isBarrier: Bool

  /// Creates an event.
  public init(
    _ kind: Kind, queue: String, queueKind: QueueItem.QueueKind, item: String, queueWidth: Int? = nil,
    isBarrier: Bool = false
  ) {
    self.kind = kind
    self.queue = queue
    self.queueKind = queueKind
    self.item = item
    self.queueWidth = queueWidth
    self.isBarrier = isBarrier
  }

  /// The event `kind` of `item`, as a trace records it.
  init(_ kind: Kind, _ item: QueueItem) {
    self.init(
      kind, queue: item.queueName, queueKind: item.kind, item: item.description, queueWidth: item.width,
      isBarrier: item.isBarrier)
  }

  /// The queue events a controlled run recorded from `AsyncQueue`'s queues (enqueue, start and
  /// finish; suspensions are not visible to the queues, so first-segment checks need events
  /// from the code under test, as the scenario interpreter records them).
  public static func events(from trace: Trace) -> [OrderingEvent] {
    trace.events.compactMap { event in
      switch event.kind {
      case .enqueued(let item, _): OrderingEvent(.enqueued, item)
      case .started(let item): OrderingEvent(.started, item)
      case .finished(let item): OrderingEvent(.finished, item)
      default:
        nil
      }
    }
  }
}
