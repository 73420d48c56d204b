/// Why a controlled run stopped without its root task finishing, and what it had done.
///
/// A run deadlocks when its root task has not finished, no job can run, no timer is pending, and
/// no outside wake-up is expected: without the harness the program would hang here.
public struct DeadlockReport: Equatable, Sendable, CustomStringConvertible {
  /// How many tasks the run had seen.
  public var taskCount: Int
  /// How many steps ran before the run stopped.
  public var steps: Int
  /// Virtual time in nanoseconds when the run stopped.
  public var virtualTime: UInt64
  /// The last steps, oldest first.
  public var lastSteps: [String]

  /// A readable report.
  public var description: String {
    var lines = [
      "deadlock: the root task did not finish, no job can run, no timer is pending and no outside wake-up is expected",
      "  \(taskCount) task(s) seen, \(steps) step(s) run, virtual time \(virtualTime) ns",
    ]
    if !lastSteps.isEmpty {
      lines.append("  last steps:")
      lines += lastSteps.map { "    \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}
