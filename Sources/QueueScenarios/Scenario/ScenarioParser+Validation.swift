import QueueTestingEngine

// What a scenario must be as a whole, checked once every line is read.
extension ScenarioParser {
  /// Cross-references: queues and items exist, each item is enqueued exactly once, no item
  /// enqueues itself through its own steps, cancels target items run as tasks.
  mutating func validate(_ scenario: Scenario) {
    validateSemaphores(of: scenario)
    // Names are looked up in sets and every check is one pass, so a file of many nested items
    // validates in linear time.
    let queueNames = Set(scenario.queues.map(\.name))
    let concurrentQueues = Set(scenario.queues.filter { $0.kind == .concurrent }.map(\.name))
    let itemNames = Set(scenario.items.map(\.name))
    var enqueuedAt: [String: Int] = [:]
    var styles: [String: Scenario.EnqueueStyle] = [:]
    /// The item whose steps enqueue each item (callers are not items).
    var parent: [String: String] = [:]
    let owners: [(name: String?, steps: [Scenario.Step])] =
      scenario.callers.map { (nil, $0.steps) } + scenario.items.map { ($0.name, $0.steps) }
    for (ownerName, steps) in owners {
      for step in steps {
        guard case .enqueue(let queue, let item, let style, _, let barrier) = step.action else { continue }
        if !queueNames.contains(queue) && !mentionedByMistakes.contains(queue) {
          error(
            step.line, column(1, onLine: step.line),
            "unknown queue '\(queue)': declare it with 'queue \(queue) fifo|actor|main|concurrent WIDTH'")
        } else if barrier && queueNames.contains(queue) && !concurrentQueues.contains(queue) {
          error(
            step.line, column(1, onLine: step.line),
            "'barrier' needs a concurrent queue: '\(queue)' is not one (declare 'queue \(queue) concurrent WIDTH')")
        }
        if !itemNames.contains(item) {
          if mentionedByMistakes.contains(item) { continue }
          error(
            step.line, column(2, onLine: step.line),
            "unknown item '\(item)': declare it with 'item \(item)' and its steps")
        } else if let earlier = enqueuedAt[item] {
          error(
            step.line, column(2, onLine: step.line),
            "item '\(item)' is already enqueued on line \(earlier): each item is enqueued exactly once")
        } else {
          enqueuedAt[item] = step.line
          styles[item] = style
          if let ownerName { parent[item] = ownerName }
        }
      }
    }
    validateCancels(of: scenario, styles: styles)
    for item in scenario.items where enqueuedAt[item.name] == nil && !mentionedByMistakes.contains(item.name) {
      error(
        item.line, 6,
        "item '\(item.name)' is never enqueued: add 'enqueue|wait|task QUEUE \(item.name)' to a caller or item")
    }
    // An item reachable from itself would be enqueued by its own body: impossible to run once.
    // Each item has at most one enqueuer, so those items are exactly the ones on a cycle of
    // enqueuer links; one walk up the links from each item, never revisiting, finds them all.
    var onCycle: Set<String> = []
    var finished: Set<String> = []
    for item in scenario.items where !finished.contains(item.name) {
      var path: [String] = []
      var position: [String: Int] = [:]
      var current: String? = item.name
      while let name = current, !finished.contains(name) {
        if let start = position[name] {
          onCycle.formUnion(path[start...])
          break
        }
        position[name] = path.count
        path.append(name)
        current = parent[name]
      }
      finished.formUnion(path)
    }
    for item in scenario.items where onCycle.contains(item.name) {
      error(item.line, 6, "item '\(item.name)' is enqueued by its own steps (directly or through other items)")
    }
  }

  /// Every semaphore a step acquires or releases is declared.
  mutating func validateSemaphores(of scenario: Scenario) {
    let declared = Set(scenario.semaphores.map(\.name))
    for step in scenario.callers.flatMap(\.steps) + scenario.items.flatMap(\.steps) {
      let named: String? =
        switch step.action {
        case .acquire(let semaphore, _), .release(let semaphore): semaphore
        default: nil
        }
      if let named, !declared.contains(named) {
        error(
          step.line, column(1, onLine: step.line),
          "unknown semaphore '\(named)': declare it with 'semaphore \(named) VALUE'")
      }
    }
  }

  /// Every cancelled item exists and was enqueued with `task`; `styles` says how each item was.
  mutating func validateCancels(of scenario: Scenario, styles: [String: Scenario.EnqueueStyle]) {
    let itemNames = Set(scenario.items.map(\.name))
    for step in scenario.callers.flatMap(\.steps) + scenario.items.flatMap(\.steps) {
      guard case .cancel(let item) = step.action else { continue }
      if !itemNames.contains(item) {
        if mentionedByMistakes.contains(item) { continue }
        error(step.line, column(1, onLine: step.line), "unknown item '\(item)' to cancel")
      } else if styles[item] != .task {
        error(
          step.line, column(1, onLine: step.line),
          "cannot cancel '\(item)': only items enqueued with 'task' have a task to cancel")
      }
    }
  }
}
