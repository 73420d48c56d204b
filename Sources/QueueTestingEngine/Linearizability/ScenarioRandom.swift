/// The seeded random source a check's operation generator draws from: the same seed gives the
/// same operations on every platform (it is SplitMix64, unlike `SystemRandomNumberGenerator`).
///
/// It is a `RandomNumberGenerator`, so the standard library's `random(in:using:)` and
/// `randomElement(using:)` take it:
///
/// ```swift
/// operations: { random in
///   Bool.random(using: &random) ? .send(Int.random(in: 1...3, using: &random)) : .receive
/// }
/// ```
public struct ScenarioRandom: RandomNumberGenerator, Sendable {
  private var generator: SplitMix64

  /// A source whose choices follow from `seed`.
  public init(seed: UInt64) {
    generator = SplitMix64(seed: seed)
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    generator.next()
  }
}
