/// An ordering guarantee of `AsyncQueue` that an oracle checks.
public enum Guarantee: String, CaseIterable, Comparable, Sendable {
  /// A FIFO queue's items start in enqueue order.
  case fifoStart = "fifo-start"
  /// A FIFO queue's items finish in enqueue order.
  case fifoFinish = "fifo-finish"
  /// A FIFO queue's items never overlap: one starts only after the previous one finished.
  case fifoExclusive = "fifo-exclusive"
  /// An actor queue's (and the main actor queue's) items start in enqueue order.
  case actorStart = "actor-start"
  /// An actor queue's item runs its first segment (until its first suspension) without any
  /// other item of the queue running in between.
  case actorFirstSegment = "actor-first-segment"
  /// A concurrent queue's items start in enqueue order.
  case concurrentStart = "concurrent-start"
  /// A concurrent queue never runs more items at once than its width.
  case concurrentWidth = "concurrent-width"
  /// A concurrent queue's barrier starts when no other item of its queue runs, and no item
  /// starts while it runs.
  case concurrentBarrier = "concurrent-barrier"
  /// A semaphore wakes its waiters in the order they began to wait.
  case semaphoreFIFO = "semaphore-fifo"
  /// A semaphore never gives out a permit it does not have, and never loses one (a cancelled
  /// wait takes none).
  case semaphorePermits = "semaphore-permits"

  /// Orders guarantees as declared.
  public static func < (lhs: Guarantee, rhs: Guarantee) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
