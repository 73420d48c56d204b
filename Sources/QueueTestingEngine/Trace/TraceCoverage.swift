/// How much of a body's schedule space a series has seen: the distinct interleavings (distinct
/// trace hashes) among the runs recorded, and when the last new one appeared. A green series with
/// few distinct traces, or none new for a long while, explored less than its schedule count
/// suggests.
public struct TraceCoverage: Equatable, Sendable {
  private var seen: Set<UInt64> = []
  /// Runs recorded.
  public private(set) var runs = 0
  /// The run (1-based) that gave the last new trace; 0 before any run.
  public private(set) var lastNewRun = 0

  /// An empty record.
  public init() {}

  /// Distinct traces among the runs recorded.
  public var distinctTraces: Int { seen.count }

  /// Runs since the last one that gave a new trace (0 when the last run was new).
  public var runsSinceNewTrace: Int { runs - lastNewRun }

  /// Records one run's trace hash.
  public mutating func record(_ traceHash: UInt64) {
    runs += 1
    if seen.insert(traceHash).inserted { lastNewRun = runs }
  }
}
