/// An actor that counts calls and notes each one that arrives out of turn: the smallest program
/// whose result depends on the order its callers reach it.
public actor CountingActor {
  /// Calls so far.
  public private(set) var count = 0
  /// Calls that found a count other than the one they expected.
  public private(set) var outOfOrder = 0

  /// Creates a counter at zero.
  public init() {}

  /// Counts one call, which expects to be call number `expected` (from 1).
  public func incrementAndCheck(_ expected: Int) {
    count += 1
    if count != expected { outOfOrder += 1 }
  }
}
