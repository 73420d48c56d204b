import AsyncQueue

/// Counts concurrently running items and remembers the maximum, to prove "never overlap".
public final class OverlapMeter: Sendable {
  private let counts = LockedState<(running: Int, maximum: Int)>.make((0, 0))

  /// A meter at zero.
  public init() {}

  /// An item starts.
  public func enter() {
    counts.withLock {
      $0.running += 1
      $0.maximum = max($0.maximum, $0.running)
    }
  }

  /// An item ends.
  public func leave() {
    counts.withLock { $0.running -= 1 }
  }

  /// The most items that ran at once.
  public var maximum: Int { counts.withLock { $0.maximum } }
}
