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

  /// Orders guarantees as declared.
  public static func < (lhs: Guarantee, rhs: Guarantee) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
