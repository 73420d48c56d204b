import QueueTestingEngine

extension Scenario {
  /// The scenario in the file format (version 1); parsing it gives back an equal scenario
  /// (except for `path`).
  package var text: String {
    var lines = ["scenario \(ScenarioParser.formatVersion)", "name \(name)", "outcome \(outcome.rawValue)"]
    let checkWords = checks.isEmpty ? ["none"] : checks.sorted().map(\.rawValue)
    lines.append("check " + (checks.count == Guarantee.allCases.count ? "all" : checkWords.joined(separator: " ")))
    lines += regressionSchedules.map { "schedule \($0)" }
    for queue in queues {
      lines.append("queue \(queue.name) \(queue.kind.rawValue)" + (queue.width.map { " \($0)" } ?? ""))
    }
    for semaphore in semaphores { lines.append("semaphore \(semaphore.name) \(semaphore.value)") }
    for caller in callers {
      lines.append(
        "caller \(caller.name) \(caller.context.rawValue)" + (caller.priority.map { " priority \($0.rawValue)" } ?? ""))
      lines += caller.steps.map { "  " + $0.action.text }
    }
    for item in items {
      lines.append("item \(item.name)")
      lines += item.steps.map { "  " + $0.action.text }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension Scenario.Step.Action {
  /// The step as written in a file.
  package var text: String {
    switch self {
    case .work: "work"
    case .suspend: "suspend"
    case .yield: "yield"
    case .sleep(let nanoseconds):
      nanoseconds % 1_000_000 == 0 ? "sleep \(nanoseconds / 1_000_000)ms" : "sleep \(nanoseconds)ns"
    case .enqueue(let queue, let item, let style, let priority, let barrier):
      "\(style.rawValue) \(queue) \(item)" + (priority.map { " priority \($0.rawValue)" } ?? "")
        + (barrier ? " barrier" : "")
    case .throwError: "throw"
    case .cancel(let item): "cancel \(item)"
    case .acquire(let semaphore, let unlessCancelled):
      "acquire \(semaphore)" + (unlessCancelled ? " unless-cancelled" : "")
    case .release(let semaphore): "release \(semaphore)"
    }
  }
}
