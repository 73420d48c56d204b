/// Which tasks a controlled run may cancel as a schedule choice.
///
/// With targets set, a run's strategy may, between any two jobs, cancel one of the targeted
/// tasks the run has seen and not cancelled yet, each at most once. The cancellation is part of
/// the run's ``Schedule`` (`+c<task>@<step>`), so the schedule replays it, and the trace records
/// it (``Trace/Event/Kind/cancelled``). It is what `Task.cancel()` from anywhere else could do at
/// that moment: cancellation handlers run at once, then the scheduler goes on choosing jobs.
///
/// Random, PCT and portfolio series make these choices (see ``CancellingStrategy``); an
/// exhaustive series does not explore them, so it refuses cancellation targets.
///
/// A cancellation lands between two jobs, never inside one. On real threads `cancel()` from
/// elsewhere may land while the task runs: code that reads `Task.isCancelled` twice within one
/// job, or a cancellation handler racing the task's own synchronous code, can see orders that
/// these choices do not offer.
public struct CancellationTargets: Equatable, Sendable, CustomStringConvertible {
  /// The tasks the run's root task creates itself (`Task {}`, `Task.detached`, `async let`,
  /// task-group children), from the moment they are created: one may be cancelled before its
  /// first job runs.
  public var includesChildrenOfRoot: Bool
  /// Tasks with these names (`Task(name:)`). The harness learns a task's name when the task
  /// itself runs into a scheduling point (an actor hop, a `Task.yield()`, a sleep, creating a
  /// task or resuming another, a gate); from then on it may be cancelled.
  public var names: Set<String>

  /// The tasks the root task creates itself.
  public static let childrenOfRoot = CancellationTargets(includesChildrenOfRoot: true, names: [])

  /// Tasks with these names.
  public static func named(_ names: String...) -> CancellationTargets {
    CancellationTargets(includesChildrenOfRoot: false, names: Set(names))
  }

  /// Tasks with these names.
  public static func named(_ names: some Sequence<String>) -> CancellationTargets {
    CancellationTargets(includesChildrenOfRoot: false, names: Set(names))
  }

  /// Creates targets from both kinds.
  public init(includesChildrenOfRoot: Bool, names: Set<String>) {
    self.includesChildrenOfRoot = includesChildrenOfRoot
    self.names = names
  }

  /// The targets that none of `reached` (what each run of a series reached, see
  /// ``RunResult/reachedCancellationTargets``) ever made cancellable, each with why that
  /// happens; empty when every target was reached at least once.
  public func unreached(by reached: [CancellationTargets]) -> [String] {
    var lines: [String] = []
    if includesChildrenOfRoot && !reached.contains(where: \.includesChildrenOfRoot) {
      lines.append("the root task created no child task that ran, so none was cancelled")
    }
    let seen = reached.reduce(into: Set<String>()) { $0.formUnion($1.names) }
    for name in names.sorted() where !seen.contains(name) {
      lines.append(
        "no task named '\(name)' was cancelled: none showed its name to the harness. The runtime shows a task's "
          + "name only to code running in that task, and this one never reached a scheduling point the harness "
          + "sees (an actor hop, a yield, a sleep, creating or resuming a task, a gate) before it waited; target it "
          + "with .childrenOfRoot if the test's root creates it")
    }
    return lines
  }

  /// For example "the root's children" or "tasks named 'download', 'upload'".
  public var description: String {
    var parts: [String] = []
    if includesChildrenOfRoot { parts.append("the root's children") }
    if !names.isEmpty { parts.append("tasks named " + names.sorted().map { "'\($0)'" }.joined(separator: ", ")) }
    return parts.isEmpty ? "no tasks" : parts.joined(separator: " and ")
  }
}
