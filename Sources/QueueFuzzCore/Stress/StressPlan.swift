import QueueScenarios
import QueueTestingEngine

/// Which generated scenarios a stress session runs, and how each is made.
///
/// Scenario `k` of seed `S` is generated from a seed of its own derived from `(S, k)`, and its
/// schedules from another, so any shard makes it without the others. Shard `i/n` takes the
/// indices `k` with `k % n == i - 1`: shards are disjoint, and `n` of them together run exactly
/// the scenarios (and schedules) one unsharded session with the same seed and count runs.
struct StressPlan {
  /// `--shard i/n`: this machine's part, `index` in `1...count`.
  struct Shard: Equatable, CustomStringConvertible {
    let index: Int
    let count: Int

    /// The whole work.
    static let whole = Shard(index: 1, count: 1)

    /// Reads `i/n` with `1 <= i <= n`.
    init(parsing text: String) throws(ArgumentReader.UsageError) {
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count) ~= index
      else {
        throw ArgumentReader.UsageError(
          message: "option '--shard' expects i/n with 1 <= i <= n (e.g. 2/4), found '\(text)'")
      }
      self.init(index: index, count: count)
    }

    init(index: Int, count: Int) {
      self.index = index
      self.count = count
    }

    var description: String { "\(index)/\(count)" }
  }

  let seed: UInt64
  let shard: Shard
  /// Scenarios of all shards together; nil: as many as time allows.
  let count: Int?
  let sizes: ScenarioGenerator.Sizes

  /// This shard's scenario indices, in order (endless without a count).
  var indices: StrideTo<Int> {
    stride(from: shard.index - 1, to: count ?? Int.max, by: shard.count)
  }

  /// The name of scenario `index`.
  func name(of index: Int) -> String { "stress-\(seed)-\(index)" }

  /// Scenario `index`, the same in every process and shard.
  func scenario(at index: Int) -> Scenario {
    var generator = ScenarioGenerator(seed: ScheduleSeries.scheduleSeed(seed, index), sizes: sizes)
    return generator.next(name: name(of: index))
  }

  /// The seed scenario `index`'s schedules derive from.
  func scheduleSeed(of index: Int) -> UInt64 {
    ScheduleSeries.scheduleSeed(~seed, index)
  }
}
