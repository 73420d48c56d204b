import AsyncQueue

/// A counter actor that takes its increments through an `ActorQueue` of its own, so they run
/// in the order they were sent even from nonisolated code.
public actor OrderedCounter {
  /// Increments that found a count other than the one they expected.
  public private(set) var outOfOrder = 0
  private var count = 0
  private let queue = ActorQueue<OrderedCounter>()

  /// Creates a counter at zero.
  public init() { queue.adoptExecutionContext(of: self) }

  /// Sends one increment, which expects to be number `expected` (from 1).
  public nonisolated func increment(expecting expected: Int) {
    queue.enqueue { myself in
      myself.count += 1
      if myself.count != expected { myself.outOfOrder += 1 }
    }
  }

  /// Returns once every increment sent before it has run.
  public func flush() async { await queue.enqueueAndWait { _ in } }
}
