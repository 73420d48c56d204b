import QueueTestingEngine

/// How big a failing case is: the scenario's parts and the schedule's choices. Shrinking makes
/// it smaller while the same guarantee still fails.
package struct ShrinkSize: Codable, Equatable, Sendable, CustomStringConvertible {
  /// Declared queues.
  package var queues: Int
  /// Callers.
  package var callers: Int
  /// Items.
  package var items: Int
  /// Steps of all callers and items.
  package var steps: Int
  /// Recorded choices of the schedule (steps with more than one runnable job).
  package var choices: Int
  /// Choices other than the oldest runnable job: where the schedule steered the run away from
  /// the order jobs became runnable. (Named `preemptions` in the JSON report, where it keeps its
  /// first name; the harness's preemptions, switches away from work that could have gone on, are
  /// ``ScenarioShrinker/Result/preemptions``.)
  package var preemptions: Int

  /// The size of `scenario` under `schedule`.
  package init(_ scenario: Scenario, _ schedule: Schedule) {
    queues = scenario.queues.count
    callers = scenario.callers.count
    items = scenario.items.count
    steps = scenario.stepCount
    choices = schedule.choices.count
    preemptions = schedule.preemptions
  }

  /// For example "2 queues, 1 caller, 3 items, 5 steps; schedule 4 choices, 1 off the oldest job".
  package var description: String {
    func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
    return [
      count(queues, "queue"), count(callers, "caller"), count(items, "item"), count(steps, "step"),
    ].joined(separator: ", ") + "; schedule " + count(choices, "choice") + ", \(preemptions) off the oldest job"
  }
}

extension Schedule {
  /// Choices other than 0 (the oldest runnable job): the points where the run was steered away
  /// from the order jobs became runnable.
  package var preemptions: Int { choices.count { $0 != 0 } }

  /// The same schedule without trailing zeros, which replay the same way (``ReplayStrategy``
  /// picks the oldest runnable job after the end).
  package var trimmed: Schedule {
    var choices = choices
    while choices.last == 0 { choices.removeLast() }
    return Schedule(choices: choices)
  }
}
