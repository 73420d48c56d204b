import Foundation

/// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): random task priorities
/// with `depth − 1` priority change points.
///
/// Each task gets a random priority when first seen and the runnable job of the highest-priority
/// task always runs; at `depth − 1` steps chosen at random from `1...expectedSteps`, the task about
/// to run is demoted below every initial priority. For a bug that needs `depth` ordering
/// constraints, one run finds it with probability at least 1/(n·k^(depth−1)) for n tasks and
/// k steps; ``summary`` states the n, k and bound of the run.
public struct PCTStrategy: ScheduleStrategy, Sendable {
  /// The bug depth the strategy targets (1: priority scheduling only).
  public let depth: Int
  /// The step range the change points are drawn from; use about the number of steps of a run.
  public let expectedSteps: Int

  private var generator: SplitMix64
  private var priorities: [Int: UInt64] = [:]
  private var changePoints: [Int]
  private var demotions = 0
  private var step = 0

  /// Creates a PCT strategy.
  /// - Parameters:
  ///   - seed: Seeds the priorities and change points.
  ///   - depth: The bug depth d, at least 1.
  ///   - expectedSteps: About how many steps a run takes (k in the bound).
  public init(seed: UInt64, depth: Int = 3, expectedSteps: Int = 1000) {
    precondition(depth >= 1, "PCTStrategy: depth must be at least 1")
    precondition(expectedSteps >= 1, "PCTStrategy: expectedSteps must be at least 1")
    self.depth = depth
    self.expectedSteps = expectedSteps
    var generator = SplitMix64(seed: seed)
    changePoints = (0..<(depth - 1)).map { _ in Int(generator.next() % UInt64(expectedSteps)) + 1 }.sorted()
    self.generator = generator
  }

  /// Without task ids PCT cannot rank jobs: runs the oldest.
  public mutating func choose(runnableCount: Int) -> Int { 0 }

  /// Runs the job of the highest-priority task, demoting it first at a change point.
  public mutating func choose(runnableTasks: some Collection<Int>) -> Int {
    step += 1
    for task in runnableTasks where priorities[task] == nil {
      // Initial priorities sit above every demoted one (demotions use 1...depth-1).
      priorities[task] = UInt64(depth) + (generator.next() >> 1)
    }
    var best = highestPriorityIndex(among: runnableTasks)
    if demotions < changePoints.count, changePoints[demotions] == step {
      demotions += 1
      let task = runnableTasks[runnableTasks.index(runnableTasks.startIndex, offsetBy: best)]
      priorities[task] = UInt64(depth - demotions)
      best = highestPriorityIndex(among: runnableTasks)
    }
    return best
  }

  private func highestPriorityIndex(among tasks: some Collection<Int>) -> Int {
    var bestIndex = 0
    var bestPriority: UInt64 = 0
    for (index, task) in tasks.enumerated() {
      let priority = priorities[task] ?? 0
      if priority > bestPriority {
        bestPriority = priority
        bestIndex = index
      }
    }
    return bestIndex
  }

  /// The run's n (tasks), k (choice steps) and the bound 1/(n·k^(d−1)).
  public var summary: String? {
    let n = max(priorities.count, 1)
    let k = max(step, 1)
    let bound = 1 / (Double(n) * pow(Double(k), Double(depth - 1)))
    return "PCT(depth: \(depth)): n = \(n) tasks, k = \(k) choice steps, bound 1/(n·k^(d−1)) = \(bound)"
  }
}
