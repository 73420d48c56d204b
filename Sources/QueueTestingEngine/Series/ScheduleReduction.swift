/// A failing schedule reduced to fewer preemptions (see ``ScheduleReducer``).
public struct ScheduleReduction: Sendable {
  /// The reduced run's preemptions, in order.
  public var preemptions: [Preemption]
  /// How many preemptions the failing schedule had.
  public var originalPreemptions: Int
  /// The failing schedule as the series found it.
  public var originalSchedule: Schedule
  /// The runs the reduction made.
  public var runs: Int
  /// Whether its budget ran out before it tried every removal.
  public var budgetExhausted: Bool

  /// Creates a record.
  public init(
    preemptions: [Preemption], originalPreemptions: Int, originalSchedule: Schedule, runs: Int,
    budgetExhausted: Bool
  ) {
    self.preemptions = preemptions
    self.originalPreemptions = originalPreemptions
    self.originalSchedule = originalSchedule
    self.runs = runs
    self.budgetExhausted = budgetExhausted
  }

  /// `1 preemption (step 14: task 2 'a' → task 3 'b'); the failing schedule had 37, reduced
  /// in 12 runs`, with task labels from `trace`.
  public func line(trace: Trace) -> String {
    let count = preemptions.count
    if count == 0 && originalPreemptions == 0 {
      return
        "0 preemptions: each task ran until it suspended or ended; the order in which waiting tasks ran is enough"
    }
    let list = preemptions.prefix(5).map {
      "step \($0.step): \(trace.label(ofTask: $0.from)) → \(trace.label(ofTask: $0.to))"
    }
    let shown = list.isEmpty ? "" : " (" + list.joined(separator: "; ") + (count > 5 ? "; …" : "") + ")"
    let origin =
      count == originalPreemptions
      ? "no fewer found in \(runs) run(s)"
      : "the failing schedule had \(originalPreemptions), reduced in \(runs) run(s)"
        // The run with none is always tried first, so 0 or 1 left is the fewest there are.
        + (count > 1 ? " (fewer, not necessarily the fewest)" : "")
    return "\(count) preemption\(count == 1 ? "" : "s")\(shown); \(origin)"
      + (budgetExhausted ? " (the reduction's budget ran out)" : "")
  }
}
