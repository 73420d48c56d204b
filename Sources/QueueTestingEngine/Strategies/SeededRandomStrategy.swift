/// Picks uniformly at random from a seeded generator: the same seed gives the same run.
public struct SeededRandomStrategy: ScheduleStrategy, Sendable {
  private var generator: SplitMix64

  /// Creates the strategy for `seed`.
  public init(seed: UInt64) {
    generator = SplitMix64(seed: seed)
  }

  /// Returns a seeded uniform choice.
  public mutating func choose(runnableCount: Int) -> Int {
    runnableCount == 1 ? 0 : Int(generator.next() % UInt64(runnableCount))
  }
}
